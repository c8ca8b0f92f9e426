/**
 * `Worker` of `logbook/worker`, in the shape of `@temporalio/worker`'s: `Worker.create(options)`,
 * then `run()` (until `shutdown()` or SIGINT/SIGTERM) or `runUntil(promise)`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { bundleWorkflowCode as bundleCode, workflowBundleFromCode, type WorkflowBundle } from '../../workflow/bundle.js';
import { durationToMs, type Duration } from '../../workflow/duration.js';
import { DeterminismViolationError, IllegalStateError } from '../../workflow/errors.js';
import { NonDeterminismError } from '../../replay/errors.js';
import { historyFromExport } from '../../replay/history-export.js';
import { replayHistories } from '../../replay/replayer.js';
import type { ActivityFunction } from '../activity-worker.js';
import { Worker as LogbookWorker } from '../worker.js';
import { NativeConnection } from './native-connection.js';
import { hostname } from 'node:os';
import { runtimeLogger } from '../../common/logger.js';
import { WorkerReporter } from '../worker-reporter.js';
import type { DataConverterOption } from '../../common/data-converter-option.js';

/** Options of {@link Worker.create} (Temporal's `WorkerOptions`, the parts Logbook has). */
export interface WorkerOptions {
  /** Default `NativeConnection.connect()` with its defaults. */
  readonly connection?: NativeConnection;
  /** Default `default`. */
  readonly namespace?: string;
  readonly taskQueue: string;
  /** The module exporting the workflow functions (bundled into the deterministic sandbox). */
  readonly workflowsPath?: string;
  /** Code `bundleWorkflowCode` built before, or the file it was written to, instead of `workflowsPath`. */
  readonly workflowBundle?: { readonly code: string } | { readonly codePath: string };
  /** The activity functions by name (a module namespace works). */
  readonly activities?: object;
  /** Default `<pid>@<hostname>`. */
  readonly identity?: string;
  readonly maxConcurrentActivityTaskExecutions?: number;
  readonly maxConcurrentWorkflowTaskExecutions?: number;
  readonly maxCachedWorkflows?: number;
  /** Most activities this worker starts per second. */
  readonly maxActivitiesPerSecond?: number;
  /** How long a shutdown lets running tasks finish before handing them back; default 10 s. */
  readonly shutdownGraceTime?: Duration;
  /**
   * Temporal's `dataConverter`: `{ payloadConverter?, payloadCodecs? }` (or a converter alone); default
   * the connection's. Codecs (encryption) run around workflow and activity code, never inside it.
   */
  readonly dataConverter?: DataConverterOption;
}

/** Where a worker stands (Temporal's `State`). */
export type State = 'INITIALIZED' | 'RUNNING' | 'STOPPING' | 'STOPPED' | 'FAILED';

/** The signals that shut the running workers down, as Temporal's runtime defaults. */
const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** The process's running workers; one listener per signal serves them all. */
const runningWorkers = new Set<Worker>();
const shutDownAll = (): void => {
  for (const worker of runningWorkers) worker.shutdown();
};

function register(worker: Worker): void {
  if (runningWorkers.size === 0) for (const signal of SHUTDOWN_SIGNALS) process.on(signal, shutDownAll);
  runningWorkers.add(worker);
}

function unregister(worker: Worker): void {
  if (!runningWorkers.delete(worker) || runningWorkers.size > 0) return;
  for (const signal of SHUTDOWN_SIGNALS) process.off(signal, shutDownAll);
}

/** The options `Worker.create` reads; Temporal's others (interceptors, sinks, tuners, …) are not supported yet. */
const KNOWN_OPTIONS: ReadonlySet<string> = new Set([
  'connection', 'namespace', 'taskQueue', 'workflowsPath', 'workflowBundle', 'activities', 'identity', 'maxConcurrentActivityTaskExecutions',
  'maxConcurrentWorkflowTaskExecutions', 'maxCachedWorkflows', 'maxActivitiesPerSecond', 'shutdownGraceTime', 'dataConverter',
]);

/** Says, once per create, which of Temporal's worker options this worker leaves out, so a port does not silently lose them. */
function warnOfIgnoredOptions(options: object): void {
  const ignored = Object.keys(options).filter((k) => !KNOWN_OPTIONS.has(k) && (options as Record<string, unknown>)[k] !== undefined);
  if (ignored.length > 0) runtimeLogger().warn(`Worker.create: ${ignored.join(', ')} ${ignored.length === 1 ? 'is' : 'are'} not supported by Logbook yet and ${ignored.length === 1 ? 'is' : 'are'} ignored`, { sdkComponent: 'worker', ignored });
}

/** A prebuilt bundle given as Temporal's `workflowBundle` option. */
async function bundleOf(given: { readonly code: string } | { readonly codePath: string }): Promise<WorkflowBundle> {
  if ('code' in given) return workflowBundleFromCode(given.code);
  return workflowBundleFromCode(await readFile(given.codePath, 'utf8'), given.codePath);
}

/**
 * Bundles a workflows module once, e.g. in a build step (Temporal's `bundleWorkflowCode`); give the
 * `code`, or the file it is written to, as `Worker.create({ workflowBundle })`. The code holds the
 * workflow runtime too, so a worker runs it as it was built.
 */
export async function bundleWorkflowCode(options: { readonly workflowsPath: string }): Promise<{ code: string }> {
  return { code: (await bundleCode(options)).code };
}

/** A history to replay: `{ events }` as `handle.fetchHistory()` gives it, a raw export (`GET …/history?raw=1`), or the events. */
export type ReplayableHistory = { readonly events: readonly unknown[] } | readonly unknown[];

/** The workflow code a replay runs: a module, or a bundle built before. */
export type ReplayWorkerOptions = { workflowsPath: string } | { workflowBundle: { readonly code: string } | { readonly codePath: string } };

/** One history for {@link Worker.runReplayHistories} (Temporal's `HistoryAndWorkflowId`). */
export interface HistoryAndWorkflowId {
  readonly workflowId: string;
  readonly history: ReplayableHistory;
}

/** How one history replayed (Temporal's `ReplayResult`): no `error` when it did. */
export interface ReplayResult {
  readonly workflowId: string;
  readonly runId: string;
  readonly error?: Error;
}

async function replayBundle(options: ReplayWorkerOptions): Promise<WorkflowBundle> {
  return 'workflowsPath' in options ? bundleCode({ workflowsPath: options.workflowsPath }) : bundleOf(options.workflowBundle);
}

/** A failed replay as the error Temporal's replay API gives: `DeterminismViolationError` for a changed path. */
function replayError(result: { workflowType: string; workflowId: string; runId: string; error?: unknown }): Error {
  const error = result.error;
  if (error instanceof NonDeterminismError) return new DeterminismViolationError(`${result.workflowType} ${result.workflowId} (run ${result.runId}) does not replay: ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/** A worker for one task queue: workflows, activities or both. */
export class Worker {
  /**
   * Replays one run's history with the given workflow code (Temporal's `Worker.runReplayHistory`),
   * to check that a code change keeps recorded runs deterministic.
   * @throws DeterminismViolationError naming the mismatch when the code would take another path;
   *   the replay's own error for a history the code cannot run at all (an unknown workflow type, a deadlock)
   */
  static async runReplayHistory(options: ReplayWorkerOptions, history: ReplayableHistory): Promise<void> {
    const [result] = await replayHistories(await replayBundle(options), [historyFromExport(history)]);
    if (!result || result.ok) return;
    throw replayError(result);
  }

  /**
   * Replays many runs' histories with the given workflow code, bundled once (Temporal's
   * `Worker.runReplayHistories`), and yields one result per history, in order: `error` is unset
   * when the run replays, a `DeterminismViolationError` when the code takes another path, and the
   * replay's own error when the code cannot run it at all.
   */
  static async *runReplayHistories(options: ReplayWorkerOptions, histories: Iterable<HistoryAndWorkflowId> | AsyncIterable<HistoryAndWorkflowId>): AsyncIterableIterator<ReplayResult> {
    const bundle = await replayBundle(options);
    for await (const { workflowId, history } of histories) {
      const [result] = await replayHistories(bundle, [historyFromExport(history)]);
      yield { workflowId: result?.workflowId ?? workflowId, runId: result?.runId ?? '', ...(result && !result.ok ? { error: replayError(result) } : {}) };
    }
  }

  private state: State = 'INITIALIZED';
  private stopRequested!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.stopRequested = resolve));

  private constructor(
    private readonly inner: LogbookWorker,
    private readonly connection: NativeConnection,
    private readonly ownsConnection: boolean,
    private readonly graceMs: number,
    private readonly reporter: WorkerReporter | undefined,
  ) {}

  /**
   * Creates a worker; nothing is polled until {@link run}.
   * @throws TypeError for options a worker cannot run with (no workflows and no activities, a bad duration)
   */
  static async create(options: WorkerOptions): Promise<Worker> {
    warnOfIgnoredOptions(options);
    const graceMs = options.shutdownGraceTime === undefined ? 10_000 : durationToMs(options.shutdownGraceTime, 'shutdownGraceTime');
    const ownsConnection = options.connection === undefined;
    const connection = options.connection ?? (await NativeConnection.connect());
    const identity = options.identity ?? `${process.pid}@${hostname()}`;
    // A worker outside the engine's process sends what only it measures to the gateway's /metrics.
    const reporter = connection.access ? new WorkerReporter(connection.access, { identity, namespace: options.namespace ?? 'default', taskQueue: options.taskQueue }) : undefined;
    try {
      const inner = new LogbookWorker(connection.workerConnection, {
        identity,
        ...(reporter ? reporter.hooks : {}),
        taskQueue: options.taskQueue,
        ...(options.namespace ? { namespace: options.namespace } : {}),
        ...(options.workflowsPath ? { workflowsPath: options.workflowsPath, history: connection.history } : {}),
        ...(options.workflowBundle ? { workflowBundle: await bundleOf(options.workflowBundle), history: connection.history } : {}),
        ...(options.activities ? { activities: options.activities as Record<string, ActivityFunction> } : {}),
        ...(options.maxConcurrentActivityTaskExecutions ? { maxConcurrentActivities: options.maxConcurrentActivityTaskExecutions } : {}),
        ...(options.maxConcurrentWorkflowTaskExecutions ? { maxConcurrentWorkflowTasks: options.maxConcurrentWorkflowTaskExecutions } : {}),
        ...(options.maxCachedWorkflows ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
        ...(options.maxActivitiesPerSecond === undefined ? {} : { maxActivitiesPerSecond: options.maxActivitiesPerSecond }),
        ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      });
      return new Worker(inner, connection, ownsConnection, graceMs, reporter);
    } catch (error) {
      if (ownsConnection) await connection.close();
      throw error;
    }
  }

  /** Where the worker stands. */
  getState(): State {
    return this.state;
  }

  /**
   * Polls the task queue until {@link shutdown} is called or the process gets SIGINT or SIGTERM,
   * then finishes (or hands back) running tasks and resolves.
   * @throws the start's error (a workflow bundle that does not build, a topic that cannot be read), or
   *   over a gateway a `GatewayAccessDeniedError` when the gateway refuses the worker's credentials
   *   (401 UNAUTHENTICATED, 403 PERMISSION_DENIED) before serving any of its polls; the state is then FAILED
   */
  async run(): Promise<void> {
    if (this.state !== 'INITIALIZED') throw new IllegalStateError(`a worker runs once; this one is ${this.state}`);
    this.state = 'RUNNING';
    register(this);
    try {
      await this.inner.start();
      this.reporter?.start();
      // As Temporal's worker fails at start on an auth error: a key the gateway refuses before it
      // served any poll will not start serving the queue by itself.
      const refused = await Promise.race([this.stopping, this.inner.refusedAtStart]);
      if (refused) throw refused;
      await this.inner.stop(this.graceMs);
      await this.reporter?.stop();
      this.state = 'STOPPED';
    } catch (error) {
      this.state = 'FAILED';
      await this.inner.stop(0).catch(() => undefined);
      await this.reporter?.stop().catch(() => undefined);
      throw error;
    } finally {
      unregister(this);
      if (this.ownsConnection) await this.connection.close().catch(() => undefined);
    }
  }

  /**
   * Runs the worker while `fnOrPromise` runs, then shuts it down; resolves with its value (and
   * rejects with its error, after the shutdown). A worker that fails to start rejects it at once.
   */
  async runUntil<R>(fnOrPromise: Promise<R> | (() => Promise<R>)): Promise<R> {
    const running = this.run();
    const stoppedEarly = running.then(() => Promise.reject(new Error('the worker stopped before the work it ran for settled')));
    try {
      return await Promise.race([typeof fnOrPromise === 'function' ? fnOrPromise() : fnOrPromise, stoppedEarly]);
    } finally {
      this.shutdown();
      // Its failure, if any, is what the race above threw.
      await running.catch(() => undefined);
    }
  }

  /**
   * Asks a running worker to stop; {@link run} resolves once it has. A worker already stopping or
   * stopped is left as it is.
   * @throws IllegalStateError for a worker that was never run
   */
  shutdown(): void {
    if (this.state === 'INITIALIZED') throw new IllegalStateError('shutdown() of a worker that is not running: call run() first');
    if (this.state !== 'RUNNING') return;
    this.state = 'STOPPING';
    this.stopRequested();
  }
}
