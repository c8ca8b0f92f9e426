import { hostname } from 'node:os';
import { assertValid, firstProblem, namespaceProblem, taskQueueProblem } from '../../topics/validation/index.js';
import { ActivityWorker, type ActivityEvent, type ActivityFunction } from './activity-worker.js';
import type { WorkerConnection } from './worker-connection.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { WorkflowWorker, type HistoryFetcher } from './workflow-worker.js';
import { GatewayTaskClient, type GatewayAccessDeniedError } from './http/gateway-task-client.js';
import { isGatewayConnection, type GatewayWorkerConnection } from './http/gateway-worker-connection.js';
import { HttpActivityWorker } from './http/http-activity-worker.js';
import { HttpWorkflowWorker } from './http/http-workflow-worker.js';
import { loadDataConverter, type DataConverterOption } from '../common/data-converter-option.js';
import { WorkerPayloads } from './worker-payloads.js';

/** One kind of worker of a queue, on either path. */
interface QueueWorker {
  start(): Promise<void>;
  stop(graceMs?: number): Promise<void>;
}

/** Options of a worker for one task queue: workflows, activities, or both. */
export interface WorkerOptions {
  readonly namespace?: string;
  readonly taskQueue: string;
  /** Module exporting the workflow functions (bundled into the deterministic sandbox). */
  readonly workflowsPath?: string;
  /** A bundle built before (see `workflowBundleFromCode`), instead of `workflowsPath`. */
  readonly workflowBundle?: WorkflowBundle;
  readonly activities?: Readonly<Record<string, ActivityFunction>>;
  /** Where to page full histories from on a cache miss (the gateway, or the engine in-process). */
  readonly history?: HistoryFetcher;
  /**
   * The name this worker's claims and results carry into history; default `<pid>@<hostname>`. It
   * need not be unique: the engine tells claims apart by their request ids, so two workers sharing
   * a name never both hold one attempt.
   */
  readonly identity?: string;
  readonly maxConcurrentActivities?: number;
  /**
   * Most activities this worker starts per second (Temporal's `maxActivitiesPerSecond`). The
   * queue's rate across workers is the namespace's `taskQueueActivitiesPerSecond` (see README).
   */
  readonly maxActivitiesPerSecond?: number;
  readonly maxConcurrentWorkflowTasks?: number;
  /**
   * How long an activity attempt runs before its worker claims it, ms (the engine arms the
   * start-to-close and heartbeat timeouts from the claim; a result sent sooner implies it, and a
   * heartbeat claims at once); default 200, 0 claims every attempt at once.
   */
  readonly activityClaimDelayMs?: number;
  /** Runs the workflow worker keeps in memory; default from the heap limit (see `defaultCacheCapacity`), and fewer under memory pressure. */
  readonly maxCachedWorkflows?: number;
  readonly onWorkflowTask?: (event: { cacheHit: boolean; replayMs: number; result: string }) => void;
  readonly onActivity?: (event: ActivityEvent) => void;
  /** Records behind on this worker's task-topic partitions, sampled every few seconds. */
  readonly onLag?: (topic: string, partition: number, lag: number) => void;
  /** Each query this worker answered: from its cache or by a replay, how long it took. */
  readonly onQuery?: (event: { source: 'cache' | 'replay'; ms: number; result: string }) => void;
  /**
   * Temporal's `dataConverter`: `{ payloadConverter?, payloadCodecs? }` (or a converter alone); default the
   * connection's. Codecs run around workflow and activity code, on both task paths.
   */
  readonly dataConverter?: DataConverterOption;
}

/**
 * A worker, as Temporal users know it: polls one task queue for workflow and activity tasks, and
 * answers the queue's queries (workflow workers only; see `query-worker.ts`). Over a Kafka
 * connection it reads the task topics; over a gateway connection it long-polls the gateway's HTTP
 * task endpoints (for a dev server on its embedded backend, or where only the gateway is reachable).
 *
 * @example
 * const worker = new Worker(engine.workerConnection(), {
 *   taskQueue: 'orders',
 *   workflowsPath: new URL('./workflows.ts', import.meta.url).pathname,
 *   activities,
 *   history: engineHistory(engine),
 * });
 * await worker.start();
 */
export class Worker {
  private readonly workflows: QueueWorker | undefined;
  private readonly activities: QueueWorker | undefined;
  /**
   * Over a gateway connection: settles with the gateway's refusal of the worker's credentials when
   * it came before any of its calls was served (see `GatewayTaskClient.refusedAtStart`). Never
   * settles over Kafka.
   */
  readonly refusedAtStart: Promise<GatewayAccessDeniedError>;

  constructor(given: WorkerConnection | GatewayWorkerConnection, options: WorkerOptions) {
    const { converter, codecs } = loadDataConverter(options.dataConverter, { converter: given.dataConverter, codecs: given.payloadCodecs ?? [] });
    const connection = { ...given, dataConverter: converter };
    const payloads = codecs.length > 0 ? new WorkerPayloads(codecs, converter) : undefined;
    const namespace = options.namespace ?? 'default';
    // Both become parts of topic names (and of the HTTP task paths): refused here, not at the first poll.
    assertValid(firstProblem(() => namespaceProblem(namespace), () => taskQueueProblem(options.taskQueue)));
    const identity = options.identity ?? `${process.pid}@${hostname()}`;
    // One client for the queue's workflow, query and activity polls: one credential, one verdict on it.
    const taskClient = isGatewayConnection(connection) ? new GatewayTaskClient(connection.gateways, namespace, options.taskQueue) : undefined;
    this.refusedAtStart = taskClient?.refusedAtStart ?? new Promise<never>(() => undefined);
    if (options.workflowsPath && options.workflowBundle) throw new TypeError('a worker takes workflowsPath or workflowBundle, not both');
    const workflows = options.workflowsPath ?? (options.workflowBundle ? { bundle: options.workflowBundle } : undefined);
    if (workflows) {
      if (!options.history) throw new TypeError('a worker that runs workflows needs a history fetcher');
      const workflowOptions = {
        namespace,
        taskQueue: options.taskQueue,
        workflowsPath: workflows,
        identity,
        history: options.history,
        ...(options.activities ? { localActivities: options.activities } : {}),
        ...(options.maxCachedWorkflows ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
        ...(options.maxConcurrentWorkflowTasks ? { maxConcurrentWorkflowTasks: options.maxConcurrentWorkflowTasks } : {}),
        ...(options.onWorkflowTask ? { onTask: options.onWorkflowTask } : {}),
        ...(options.onLag ? { onLag: options.onLag } : {}),
        ...(options.onQuery ? { onQuery: options.onQuery } : {}),
        ...(payloads ? { payloads } : {}),
      };
      this.workflows = isGatewayConnection(connection) ? new HttpWorkflowWorker(taskClient!, connection.dataConverter, workflowOptions) : new WorkflowWorker(connection, workflowOptions);
    }
    if (options.activities) {
      const activityOptions = {
        namespace,
        taskQueue: options.taskQueue,
        activities: options.activities,
        identity,
        ...(options.maxConcurrentActivities ? { maxConcurrentActivities: options.maxConcurrentActivities } : {}),
        ...(options.onActivity ? { onActivity: options.onActivity } : {}),
        ...(payloads ? { payloads } : {}),
      };
      if (isGatewayConnection(connection)) {
        // The pace is kept where tasks are read; the gateway's bridge has no per-worker pace.
        if (options.maxActivitiesPerSecond !== undefined) throw new TypeError('maxActivitiesPerSecond is not available over a gateway connection yet: connect the worker with brokers to use it');
        this.activities = new HttpActivityWorker(taskClient!, connection.dataConverter, activityOptions);
      } else {
        this.activities = new ActivityWorker(connection, {
          ...activityOptions,
          ...(options.maxActivitiesPerSecond === undefined ? {} : { maxActivitiesPerSecond: options.maxActivitiesPerSecond }),
          ...(options.activityClaimDelayMs === undefined ? {} : { claimDelayMs: options.activityClaimDelayMs }),
          ...(options.onLag ? { onLag: options.onLag } : {}),
        });
      }
    }
    if (!this.workflows && !this.activities) throw new TypeError('a worker needs workflowsPath (or workflowBundle), activities, or both');
  }

  async start(): Promise<void> {
    await this.workflows?.start();
    await this.activities?.start();
  }

  /** Graceful shutdown: finishes or hands back in-flight work. */
  async stop(graceMs?: number): Promise<void> {
    await Promise.all([this.workflows?.stop(graceMs), this.activities?.stop(graceMs)]);
  }
}
