import type { CommandClient } from '../../sdk/client/command-client.js';
import type { HistoryReader } from './engine-probes.js';

/** Settings shared by every workload of one `npm run bench` run. */
export interface BenchSettings {
  readonly backend: 'kafka' | 'embedded';
  readonly shards: number;
  readonly quick: boolean;
  /** The workloads to run, in order (`--workloads w1,w2,…`). */
  readonly workloads: readonly string[];
  /** W1 sweep rates in workflows/s. */
  readonly rates: readonly number[];
  readonly stepSeconds: number;
  readonly latencyRuns: number;
  readonly speedOfLightRecords: number;
  /** `--size N`: a workload's own count (W2 workflows, W3 workflows × signals…), when given. */
  readonly size?: number;
}

/** The engine node under test, as a workload sees it. */
export interface BenchEngine {
  /** The engine's process id (the load generator's own on the embedded backend). */
  readonly pid: number;
  /** The engine's data directory (its state stores). */
  readonly dataDirectory: string;
  /** The gateway URL of the engine (the embedded backend serves no HTTP in the harness). */
  readonly endpoint: string;
  /** SIGKILL the engine process and start a new one on the same data directory (Kafka only). */
  readonly killAndRestart?: () => Promise<void>;
  /** Topic prefix of this run. */
  readonly prefix: string;
  /** Reads a run's history from the engine (for timestamps the engine recorded). */
  readonly history: HistoryReader;
}

/** Everything a workload needs: the client that offers load, the engine under test, and the settings. */
export interface BenchContext {
  readonly settings: BenchSettings;
  readonly client: CommandClient;
  readonly engine: BenchEngine;
  /** `host:port` of the brokers (Kafka backend only). */
  readonly brokers?: readonly string[];
  /** Progress lines, timestamped by the harness. */
  readonly log: (line: string) => void;
}

/** One row of the human table: a figure and its value. */
export interface TableRow {
  readonly figure: string;
  readonly value: string;
}

/** A workload of the harness: runs, returns its JSON result and its table rows. */
export interface Workload {
  /** Short name used by `--workloads` and as the key of the JSON result. */
  readonly name: string;
  readonly description: string;
  /** Backends it can run on. */
  readonly backends: ReadonlyArray<BenchSettings['backend']>;
  /** Resolves with its figures; `failures` names parts that failed while others still measured (the run then fails). */
  run(context: BenchContext): Promise<{ result: unknown; rows: TableRow[]; failures?: string[] }>;
}
