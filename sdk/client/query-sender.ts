import { randomUUID } from 'node:crypto';
import type { TopicCatalog } from '../../topics/catalog.js';
import { queryWorkersGroupId, workflowKey } from '../../topics/catalog.js';
import { LogbookError } from '../../topics/errors.js';
import type { Log, Producer } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { QueryTask } from '../../topics/schemas/query-task/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { queryTaskCodec } from '../../topics/serde/index.js';
import { ReplyTimeoutError, type ReplyListener } from '../../topics/replies/reply-listener.js';
import { TaskTopics } from '../../topics/task-topics.js';
import { QueryFailureCode } from '../workflow/queries.js';
import type { QueryTarget, RunLocator } from './query-target.js';

/** Default time a query waits for a worker's answer. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
/** First pause before a query re-reads a run whose events wait behind an in-flight workflow task (doubling up to 500 ms). */
const BUFFERED_EVENTS_POLL_MS = 20;

/** Options of a query. */
export interface QueryOptions {
  readonly namespace?: string;
  /** A past run of the workflow; default: the current run. */
  readonly runId?: string;
  /** How long to wait for a worker's answer; default 10 s. */
  readonly timeoutMs?: number;
}

/** No worker answered a query in time. Retriable: a worker may be starting or rebalancing. */
export class QueryTimeoutError extends LogbookError {
  constructor(workflowId: string, queryType: string, taskQueue: string, timeoutMs: number) {
    super(
      'QUERY_TIMEOUT',
      `no worker answered query '${queryType}' of workflow ${workflowId} within ${timeoutMs} ms; is a worker polling task queue ${taskQueue}?`,
      { retriable: true },
    );
  }
}

/**
 * Nobody answered a query in time, and nobody polls the task queue's queries: no worker of the
 * queue is running (Temporal refuses such a query too, as a failed precondition).
 */
export class NoPollersError extends LogbookError {
  constructor(workflowId: string, queryType: string, taskQueue: string) {
    super('NoPollers', `no worker polls task queue ${taskQueue}, so nobody can answer query '${queryType}' of workflow ${workflowId}; start a worker of the queue`);
  }
}

/**
 * A worker answered that the query failed: `UnknownQuery` (the message lists the known queries),
 * `QueryFailed` (the handler threw, returned a promise or tried to change the run, or the run could
 * not be rebuilt), or a retriable infrastructure code such as `SHARD_UNAVAILABLE`.
 */
export class QueryFailedError extends LogbookError {
  constructor(readonly failure: Failure) {
    super(failure.code, failure.message, { retriable: !Object.values<string>(QueryFailureCode).includes(failure.code) });
  }
}

/**
 * Sends queries straight to the workers of the run's task queue — never through the history
 * shard, so nothing is written and no transaction is involved — and waits for the answer on the
 * replies topic:
 *
 * 1. the locator reads the run's state from its shard owner (task queue, last event, the latest
 *    workflow task the answer must include);
 * 2. a `QueryTask` goes to the queue's query topic, keyed `ns/workflowId` (co-partitioned with the
 *    queue's workflow tasks), with this client's reply address and a deadline;
 * 3. a workflow worker answers with a `QueryAnswer` reply keyed by the request id.
 */
export class QuerySender {
  private producer: Promise<Producer> | undefined;
  private readonly taskTopics: TaskTopics;

  constructor(
    private readonly log: Log,
    private readonly catalog: TopicCatalog,
    private readonly serde: Serde,
    private readonly replies: ReplyListener,
    private readonly dataConverter: DataConverter,
    private readonly locateRun: RunLocator | undefined,
  ) {
    this.taskTopics = new TaskTopics(log.admin, catalog);
  }

  /**
   * Asks the run's query handler `queryType` and resolves with its decoded result.
   * @throws LogbookError `WorkflowNotFound` / `RunNotFound`; {@link QueryFailedError}; {@link QueryTimeoutError}
   */
  async query<R = unknown>(workflowId: string, queryType: string, args: readonly unknown[], options: QueryOptions = {}): Promise<R> {
    if (!this.locateRun) {
      throw new LogbookError('QUERY_NEEDS_RUN_LOCATOR', 'this client cannot read run states: connect it with a run locator (for example gatewayRunLocator(address))');
    }
    const namespace = options.namespace ?? 'default';
    const timeoutMs = options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    // The deadline covers the whole call, locating the run included.
    const deadline = Date.now() + timeoutMs;
    let target = await this.locateRun(namespace, workflowId, options.runId);
    // A signal accepted while a workflow task was in flight is buffered until that task ends; a
    // query sent now would be answered without it, so locate again until it is in a task — for at
    // most half the deadline (a task held by a dead worker, or a run signalled without pause, may
    // keep events buffered for long), then ask anyway.
    const stopWaiting = Date.now() + timeoutMs / 2;
    for (let pause = BUFFERED_EVENTS_POLL_MS; target.eventsBuffered && Date.now() < stopWaiting; pause = Math.min(pause * 2, 500)) {
      await new Promise((r) => setTimeout(r, pause));
      target = await this.locateRun(namespace, workflowId, options.runId);
    }
    const reply = await this.ask({ namespace, workflowId, queryType, args: args.map((a) => this.dataConverter.toPayload(a)), target, deadline, timeoutMs });
    if (reply.failure !== null) throw new QueryFailedError(reply.failure);
    return (reply.payload === null ? undefined : this.dataConverter.fromPayload(reply.payload)) as R;
  }

  private async ask(query: { namespace: string; workflowId: string; queryType: string; args: QueryTask['args']; target: QueryTarget; deadline: number; timeoutMs: number }): Promise<Reply> {
    const { namespace, workflowId, queryType, args, target, deadline, timeoutMs } = query;
    // The topic exists once a worker of the queue started; before that, the query must still time out cleanly.
    await this.taskTopics.ensure(namespace, target.taskQueue);
    const requestId = randomUUID();
    const task: QueryTask = {
      namespace,
      workflowId,
      runId: target.runId,
      queryType,
      args,
      header: {},
      replyTo: { gatewayId: this.replies.gatewayId, requestId },
      deadlineTime: deadline,
      lastEventId: target.lastEventId,
      workflowTaskScheduledEventId: target.workflowTaskScheduledEventId,
    };
    const topic = this.catalog.taskTopics(namespace, target.taskQueue).query;
    const reply = this.replies.expect(requestId, Math.max(1, deadline - Date.now()));
    // Attach a handler now: if the send fails, the pending reply must not surface as unhandled.
    reply.catch(() => undefined);
    this.producer ??= this.log.producer();
    await (await this.producer).send([{ topic, key: workflowKey(namespace, workflowId), value: await this.serde.encode(queryTaskCodec, task, topic) }]);
    try {
      return await reply;
    } catch (error) {
      if (!(error instanceof ReplyTimeoutError)) throw error;
      // Nobody answered: a queue no worker polls is the caller's to fix (400), a silent worker a timeout (504).
      const polled = await this.log.admin.groupMembers(queryWorkersGroupId(this.catalog, namespace, target.taskQueue)).catch(() => 1);
      throw polled === 0 ? new NoPollersError(workflowId, queryType, target.taskQueue) : new QueryTimeoutError(workflowId, queryType, target.taskQueue, timeoutMs);
      throw error;
    }
  }
}
