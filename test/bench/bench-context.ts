import type { CommandClient } from '../../sdk/client/command-client.js';
import type { HistoryReader } from './engine-probes.js';
import type { CpuRoles } from './process-cpu.js';

/** Settings shared by every workload of one `npm run bench` run. */
export interface BenchSettings {
  readonly backend: 'kafka' | 'embedded';
  readonly shards: number;
  readonly quick: boolean;
  /** The workloads to run, in order (`--workloads w1,w2,…`). */
  readonly workloads: readonly string[];
  /** W1 sweep rates in workflows/s. */
  readonly rates: readonly number[];
  /** `--rates` was given: a workload that offers one rate of its own (W4) takes the first one then. */
  readonly ratesGiven: boolean;
  readonly stepSeconds: number;
  readonly latencyRuns: number;
  /** Callers of the closed-loop workload (`--concurrency`, 64 unless given). */
  readonly concurrency: number;
  /**
   * Where the workflow and activity workers run on Kafka (`--workers`): `separate`, a process of
   * their own beside the engine's (the normal deployment, and the default), or `same`, inside the
   * engine process.
   */
  readonly workers: 'separate' | 'same';
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
  /**
   * The file the bench activity appends one line per execution to (`BENCH_ACTIVITY_LOG` of the
   * engine and worker processes, see workflows/activities.ts); Kafka only.
   */
  readonly activityLog?: string;
  /** Reads a run's history from the engine (for timestamps the engine recorded). */
  readonly history: HistoryReader;
  /** The engine's Prometheus metrics, as text. */
  metrics(): Promise<string>;
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
  /**
   * The processes whose CPU time a workload adds up, by role (`engine`, `workers`, `broker`,
   * `client`), read anew at each call since W4 replaces the engine process.
   */
  readonly cpuRoles: () => CpuRoles;
  /** The JSON results of the workloads that ran before this one, by workload name (sol-ratio reads w1's and sol's). */
  readonly results: Readonly<Record<string, unknown>>;
}

/** One row of the human table: a figure and its value. */
export interface TableRow {
  readonly figure: string;
  readonly value: string;
}

/** What a workload hands back. */
export interface WorkloadOutcome {
  readonly result: unknown;
  readonly rows: TableRow[];
  /**
   * Properties the workload checked that did not hold (a lost workflow, a completed activity run
   * again…): the result is kept, since it is the evidence, and the run exits non-zero.
   */
  readonly failures?: readonly string[];
}

/** A workload of the harness: runs, returns its JSON result and its table rows. */
export interface Workload {
  /** Short name used by `--workloads` and as the key of the JSON result. */
  readonly name: string;
  readonly description: string;
  /** Backends it can run on. */
  readonly backends: ReadonlyArray<BenchSettings['backend']>;
  run(context: BenchContext): Promise<WorkloadOutcome>;
}
