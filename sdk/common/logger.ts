/**
 * Logging as Temporal's SDK does it: a {@link Logger} with five levels and structured attributes,
 * a {@link DefaultLogger} that prints one line per entry at or above its level, and one logger per
 * process (set with `Runtime.install({ logger })` of `logbook/worker`) that workflow `log`, activity
 * `log` and workflow `console` calls go to, with the run's or the activity's attributes added.
 * @module
 */

/** Temporal's log levels, lowest first. */
export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
/** Structured attributes of a log entry. */
export type LogMetadata = Record<string | symbol, unknown>;

/** A logger (Temporal's `Logger`). */
export interface Logger {
  log(level: LogLevel, message: string, meta?: LogMetadata): void;
  trace(message: string, meta?: LogMetadata): void;
  debug(message: string, meta?: LogMetadata): void;
  info(message: string, meta?: LogMetadata): void;
  warn(message: string, meta?: LogMetadata): void;
  error(message: string, meta?: LogMetadata): void;
}

/** One entry as {@link DefaultLogger} hands it to its function. */
export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  readonly meta: LogMetadata | undefined;
  /** When it was logged, in nanoseconds since the epoch (as Temporal's). */
  readonly timestampNanos: bigint;
}

const SEVERITY: Readonly<Record<LogLevel, number>> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4 };

/** Prints `2026-12-04T10:00:00.000Z [INFO] message { …attributes }` to stderr. */
function printEntry(entry: LogEntry): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = entry.meta && Object.keys(entry.meta).length > 0 ? ` ${JSON.stringify(entry.meta, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}` : '';
  process.stderr.write(`${time} [${entry.level}] ${entry.message}${meta}\n`);
}

/**
 * A logger that passes entries at or above `level` to `fn` (default: one line on stderr), as
 * Temporal's `DefaultLogger`.
 */
export class DefaultLogger implements Logger {
  private readonly threshold: number;

  constructor(
    readonly level: LogLevel = 'INFO',
    private readonly fn: (entry: LogEntry) => void = printEntry,
  ) {
    if (!(level in SEVERITY)) throw new TypeError(`log level must be one of ${Object.keys(SEVERITY).join(', ')}; got ${JSON.stringify(level)}`);
    this.threshold = SEVERITY[level];
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if ((SEVERITY[level] ?? SEVERITY.INFO) < this.threshold) return;
    this.fn({ level, message, meta, timestampNanos: BigInt(Date.now()) * 1_000_000n });
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

let processLogger: Logger = new DefaultLogger('INFO');

/** The process's logger (what workflows and activities log to). */
export function runtimeLogger(): Logger {
  return processLogger;
}

/** Sets the process's logger (`Runtime.install({ logger })`). */
export function setRuntimeLogger(logger: Logger): void {
  processLogger = logger;
}

/** A logger that adds `attributes` to every entry it passes on (an entry's own win). */
export function withAttributes(logger: () => Logger, attributes: () => LogMetadata): Logger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => logger().log(level, message, { ...attributes(), ...meta });
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
