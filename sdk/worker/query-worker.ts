import { queryWorkersGroupId } from '../../topics/catalog.js';
import type { LogRecord, Producer } from '../../topics/log/log.js';
import { LogbookError } from '../../topics/errors.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { QueryTask } from '../../topics/schemas/query-task/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { queryTaskCodec, replyCodec } from '../../topics/serde/index.js';
import { EvictionRequiredError } from '../replay/errors.js';
import { FAILURE_SOURCE } from '../replay/conversions.js';
import { WorkflowRun, type QueryResult } from '../replay/workflow-run.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { QueryFailureCode } from '../workflow/queries.js';
import { TaskConsumer } from './task-consumer.js';
import type { WorkerConnection } from './worker-connection.js';
import type { WorkflowCache } from './workflow-cache.js';
import type { HistoryFetcher } from './workflow-worker.js';

/** Queries answered at once by one worker; they are short, and a replay waits on history I/O. */
const MAX_CONCURRENT_QUERIES = 16;
/** A query read this long after its deadline is dropped unanswered (allows for clock skew between machines). */
const DEADLINE_SKEW_ALLOWANCE_MS = 5_000;

/** Options of a {@link QueryWorker}. */
export interface QueryWorkerOptions {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly identity: string;
  readonly bundle: WorkflowBundle;
  /** The workflow worker's cache: a run held there answers without a replay. */
  readonly cache: WorkflowCache;
  readonly history: HistoryFetcher;
  readonly deadlockTimeoutMs?: number;
  /** Observability hook (tests, metrics): where the answer came from and how long it took. */
  readonly onQuery?: (event: { source: 'cache' | 'replay'; ms: number; result: QueryResult['type'] }) => void;
}

/**
 * Answers the queries of one task queue for a workflow worker, apart from its workflow tasks: a
 * consumer of its own on the queue's query topic, with its own concurrency, so a query is served
 * at once however long the workflow-task backlog is. Nothing is written but the reply.
 *
 * Group: the queue's query workers form their own group (`<prefix>-query-workers-<ns>-<queue>`),
 * not the workflow-task group. Any worker can answer any query, by replaying history when it does
 * not hold the run, so queries keep working whoever owns the workflow-task partitions — including
 * HTTP pollers of the gateway, which share the workflow-task group but cannot answer queries. A
 * worker that holds the run (always, with one worker per queue) answers from its cache.
 *
 * Consistency: a query carries the latest workflow task it must see
 * (`workflowTaskScheduledEventId`, from the run's state when it was sent). A cached run that has
 * processed that task answers at once; otherwise — the task is still queued behind the backlog, the
 * run is not cached here, the run is closed — the worker pages history up to the query's
 * `lastEventId` into a throwaway run, runs the pending task's code there if there is one (its
 * commands are discarded), and answers from that. So a query after a signal sees the signal.
 */
export class QueryWorker {
  private consumer: TaskConsumer | undefined;
  private producer: Promise<Producer> | undefined;

  constructor(
    private readonly connection: WorkerConnection,
    private readonly options: QueryWorkerOptions,
  ) {}

  /** Joins the queue's query-worker group and starts answering. */
  async start(): Promise<void> {
    const { catalog, log } = this.connection;
    const { namespace, taskQueue, identity } = this.options;
    this.consumer = new TaskConsumer({
      log,
      topic: catalog.taskTopics(namespace, taskQueue).query,
      groupId: queryWorkersGroupId(catalog, namespace, taskQueue),
      identity,
      maxConcurrent: MAX_CONCURRENT_QUERIES,
      ordered: false,
      handle: (record) => this.process(record),
    });
    await this.consumer.start();
  }

  /** Stops taking queries, lets running ones finish (up to `graceMs`) and leaves the group. */
  async stop(graceMs?: number): Promise<void> {
    await this.consumer?.stop(graceMs);
  }

  private async process(record: LogRecord): Promise<void> {
    if (!record.value) return;
    const { serde, catalog, log } = this.connection;
    const task = await serde.decode(queryTaskCodec, record.value);
    // The asker has given up: answering would only delay the queries behind this one.
    if (Date.now() > task.deadlineTime + DEADLINE_SKEW_ALLOWANCE_MS) return;
    const started = performance.now();
    const { result, source } = await this.answer(task);
    this.options.onQuery?.({ source, ms: performance.now() - started, result: result.type });
    const reply: Reply = {
      requestId: task.replyTo.requestId,
      kind: 'QueryAnswer',
      runId: task.runId,
      payload: result.type === 'answered' ? result.result : null,
      failure: result.type === 'failed' ? result.failure : null,
      executionStatus: null,
    };
    this.producer ??= log.producer();
    await (await this.producer).send([{ topic: catalog.replies, key: reply.requestId, value: await serde.encode(replyCodec, reply, catalog.replies) }]);
  }

  /** Answers from the cached run when it has seen what the query must see; otherwise replays. */
  async answer(task: QueryTask): Promise<{ result: QueryResult; source: 'cache' | 'replay' }> {
    const cached = this.options.cache.get(task.runId);
    if (cached && cached.lastEventId >= task.workflowTaskScheduledEventId) {
      try {
        return { result: cached.query(task.queryType, task.args), source: 'cache' };
      } catch (error) {
        // The cached run failed or was interrupted; the next workflow task evicts it. Replay.
        if (!(error instanceof EvictionRequiredError)) throw error;
      }
    }
    return { result: await this.replay(task), source: 'replay' };
  }

  private async replay(task: QueryTask): Promise<QueryResult> {
    let history: HistoryEvent[];
    try {
      history = await this.options.history.fetch(task, task.lastEventId);
    } catch (error) {
      // Retriable trouble (a shard moving) keeps its code so the asker can retry.
      const code = error instanceof LogbookError && error.retriable ? error.code : QueryFailureCode.QueryFailed;
      return failed(code, `could not read the history of run ${task.runId} to answer query '${task.queryType}': ${messageOf(error)}`);
    }
    const first = history[0];
    if (first?.attributes.type !== 'WorkflowExecutionStarted') {
      return failed(QueryFailureCode.QueryFailed, `the history of run ${task.runId} does not start with WorkflowExecutionStarted`);
    }
    const identity = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: first.workflowType, taskQueue: first.taskQueue };
    const run = WorkflowRun.create(this.options.bundle, identity, {
      dataConverter: this.connection.dataConverter,
      logger: () => undefined,
      ...(this.options.deadlockTimeoutMs ? { deadlockTimeoutMs: this.options.deadlockTimeoutMs } : {}),
    });
    try {
      if (task.workflowTaskScheduledEventId > lastCompletedTask(history)) {
        // A task is pending: run its code here too, so the answer includes what it brings.
        const pending = run.activateForQuery(history);
        if (pending.type === 'failed') {
          return failed(QueryFailureCode.QueryFailed, `the pending workflow task of run ${task.runId} fails, so query '${task.queryType}' cannot be answered: ${pending.failure.message}`);
        }
      } else {
        run.replayRecorded(history);
      }
      return run.query(task.queryType, task.args);
    } catch (error) {
      return failed(QueryFailureCode.QueryFailed, `could not replay run ${task.runId} to answer query '${task.queryType}': ${messageOf(error)}`);
    } finally {
      run.dispose();
    }
  }
}

/** Scheduled event id of the last completed workflow task in `history`, 0 if none. */
function lastCompletedTask(history: readonly HistoryEvent[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const attributes = history[i]!.attributes;
    if (attributes.type === 'WorkflowTaskCompleted') return attributes.scheduledEventId;
  }
  return 0;
}

function failed(code: string, message: string): QueryResult {
  const failure: Failure = { message, source: FAILURE_SOURCE, stackTrace: '', code, nonRetryable: false, details: null, cause: null };
  return { type: 'failed', failure };
}

function messageOf(error: unknown): string {
  return String((error as Error)?.message ?? error);
}
