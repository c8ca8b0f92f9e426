import { queryWorkersGroupId } from '../../topics/catalog.js';
import type { LogRecord, Producer } from '../../topics/log/log.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { queryTaskCodec, replyCodec } from '../../topics/serde/index.js';
import type { QueryResult } from '../replay/workflow-run.js';
import type { QueryAnswerer } from './query-answerer.js';
import { TaskConsumer } from './task-consumer.js';
import type { WorkerConnection } from './worker-connection.js';

/** Queries answered at once by one worker; they are short, and a replay waits on history I/O. */
const MAX_CONCURRENT_QUERIES = 16;
/** A query read this long after its deadline is dropped unanswered (allows for clock skew between machines). */
const DEADLINE_SKEW_ALLOWANCE_MS = 5_000;

/** Options of a {@link QueryWorker}. */
export interface QueryWorkerOptions {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly identity: string;
  /** Answers each query, from the workflow worker's cache or by a replay. */
  readonly answerer: QueryAnswerer;
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
 * not hold the run, so queries keep working whoever owns the workflow-task partitions. The
 * gateway joins the group too while HTTP workers poll its query endpoints. A worker that holds the
 * run (always, with one worker per queue) answers from its cache; see {@link QueryAnswerer}.
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
    const { result, source } = await this.options.answerer.answer(task);
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
}
