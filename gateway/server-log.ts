/**
 * What a node prints: text for people (the default), or one JSON object per line for log
 * pipelines (`--log-format json`), with the fields that say what a line is about — `shard` on
 * shard lines, `workflowId`, `runId`, `namespace` and the rest on workflow and activity lines.
 * @module
 */
import { DefaultLogger, setRuntimeLogger, type LogEntry, type LogLevel } from '../sdk/common/logger.js';

/** The formats of `--log-format`. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** A node's log: a message, its level and the fields it is about. */
export interface ServerLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The node's log in `format`, and the process's runtime logger (what workflows and activities log
 * to) set to the same format: INFO lines go to stdout, WARN and ERROR to stderr.
 * @throws RangeError naming the flag for a format that is not one
 */
export function serverLog(format: string, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`), err: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): ServerLog {
  if (!(LOG_FORMATS as readonly string[]).includes(format)) throw new RangeError(`--log-format (LOGBOOK_LOG_FORMAT) must be text or json, got '${format}'`);
  const write = (level: LogLevel, message: string, fields: Record<string, unknown> = {}) => {
    const sink = level === 'WARN' || level === 'ERROR' ? err : out;
    if (format === 'json') sink(JSON.stringify({ time: new Date().toISOString(), level: level.toLowerCase(), msg: message, ...fields }));
    else sink(message);
  };
  // Workflow and activity logs carry the run's ids as attributes: in JSON they become fields.
  if (format === 'json') setRuntimeLogger(new DefaultLogger('INFO', (entry: LogEntry) => write(entry.level, entry.message, jsonFields(entry.meta))));
  return {
    info: (message, fields) => write('INFO', message, fields),
    warn: (message, fields) => write('WARN', message, fields),
    error: (message, fields) => write('ERROR', message, fields),
  };
}

/** An entry's attributes as JSON fields (symbols dropped, errors as their message). */
function jsonFields(meta: LogEntry['meta']): Record<string, unknown> {
  if (!meta) return {};
  return Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, v instanceof Error ? v.message : v]));
}
