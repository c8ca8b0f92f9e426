import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { isShardFailure, parseShardEventLine, type ShardFailure, type TimedShardEvent } from './shard-failures.js';

/**
 * The engine nodes and worker processes of a chaos run, each a child process
 * (test/support/engine-main.ts) whose output is timestamped into its own log file and read line by
 * line for shard failures. A process that exits without the harness killing or stopping it is a
 * crash, recorded with its last lines.
 */

/** What every process of the run shares. */
export interface ProcessContext {
  readonly brokers: readonly string[];
  readonly prefix: string;
  readonly shards: number;
  readonly replicationFactor: number;
  /** Where each process's log file goes. */
  readonly logDir: string;
  readonly onShardFailure: (failure: ShardFailure) => void;
  /** Every shard event, failures included (the harness times takeovers with the `started` ones). */
  readonly onShardEvent?: (event: TimedShardEvent) => void;
  readonly onCrash: (description: string) => void;
}

/** One engine node, or one worker process, that can be killed and started again on the same data directory and port. */
export class ChaosProcess {
  private current: EngineProcess | undefined;
  private expectingExit = false;
  private readonly log: WriteStream;
  private partial = '';
  private lastLines: string[] = [];
  /** When the harness last killed it (epoch ms). */
  lastKilledAt = 0;
  /** Start-ups that failed (the process exited or timed out before READY). */
  readonly startFailures: string[] = [];

  constructor(
    readonly name: string,
    private readonly context: ProcessContext,
    private readonly env: Record<string, string>,
    /** The gateway URL (engine nodes; workers have none). */
    readonly endpoint: string | undefined,
  ) {
    this.log = createWriteStream(join(context.logDir, `${name}.log`), { flags: 'a' });
  }

  get up(): boolean {
    return this.current !== undefined;
  }

  get pid(): number | undefined {
    return this.current?.pid;
  }

  /** Starts the process and waits for READY, trying again (up to `attempts` times) when a start-up fails. */
  async start(attempts = 3): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.note(`starting (attempt ${attempt})`);
      try {
        const started = await startEngineProcess(this.env, 120_000, [], (chunk) => this.onOutput(chunk));
        this.current = started;
        this.expectingExit = false;
        void started.exited.then((end) => this.onExit(started, end.code, end.signal));
        return;
      } catch (error) {
        const reason = (error as Error).message.split('\n').slice(0, 3).join(' ');
        this.startFailures.push(reason);
        this.note(`start-up failed: ${reason}`);
        if (attempt >= attempts) throw new Error(`${this.name} did not start in ${attempts} attempts: ${reason}`);
      }
    }
  }

  /** SIGKILL; resolves once the process is gone. */
  async kill9(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.expectingExit = true;
    this.lastKilledAt = Date.now();
    this.note('kill -9');
    this.current = undefined;
    await current.kill9();
  }

  /** SIGTERM (a graceful stop), for the end of the run. */
  async stop(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.expectingExit = true;
    this.current = undefined;
    await current.stop();
    this.log.end();
  }

  private onOutput(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    const at = Date.now();
    for (const line of lines) {
      this.log.write(`${new Date(at).toISOString()} ${line}\n`);
      this.lastLines = [...this.lastLines.slice(-19), line];
      const event = parseShardEventLine(line);
      if (!event) continue;
      this.context.onShardEvent?.({ ...event, at, node: this.name });
      if (isShardFailure(event)) this.context.onShardFailure({ ...event, at, node: this.name });
    }
  }

  private onExit(process: EngineProcess, code: number | null, signal: string | null): void {
    if (this.current === process) this.current = undefined;
    if (this.expectingExit) return;
    const description = `${this.name} (pid ${process.pid}) exited on its own with ${code ?? signal}; its last lines: ${this.lastLines.slice(-5).join(' | ')}`;
    this.note(description);
    this.context.onCrash(description);
  }

  private note(text: string): void {
    this.log.write(`${new Date().toISOString()} [harness] ${text}\n`);
  }
}

/** The environment of an engine node without workers. */
export function engineEnv(context: ProcessContext, dataDirectory: string, port: number): Record<string, string> {
  return {
    LOGBOOK_KAFKA_BROKERS: context.brokers.join(','),
    ENGINE_PREFIX: context.prefix,
    ENGINE_SHARDS: String(context.shards),
    ENGINE_REPLICATION_FACTOR: String(context.replicationFactor),
    ENGINE_ROLE: 'engine',
    ENGINE_DATA: dataDirectory,
    ENGINE_PORT: String(port),
  };
}

/** The environment of a worker process serving the chaos task queue, logging activity executions to `activityLog`. */
export function workerEnv(context: ProcessContext, gateways: readonly string[], activityLog: string): Record<string, string> {
  return {
    LOGBOOK_KAFKA_BROKERS: context.brokers.join(','),
    ENGINE_PREFIX: context.prefix,
    ENGINE_SHARDS: String(context.shards),
    ENGINE_REPLICATION_FACTOR: String(context.replicationFactor),
    ENGINE_ROLE: 'workers',
    ENGINE_WORKER_GATEWAY: gateways.join(','),
    ENGINE_WORKER_QUEUES: 'chaos',
    BENCH_ACTIVITY_LOG: activityLog,
  };
}
