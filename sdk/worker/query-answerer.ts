import { LogbookError } from '../../topics/errors.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { QueryTask } from '../../topics/schemas/query-task/index.js';
import { EvictionRequiredError } from '../replay/errors.js';
import { FAILURE_SOURCE } from '../replay/conversions.js';
import { WorkflowRun, type QueryResult } from '../replay/workflow-run.js';
import type { WorkflowBundle } from '../workflow/bundle.js';
import { QueryFailureCode } from '../workflow/queries.js';
import type { WorkflowCache } from './workflow-cache.js';
import type { HistoryFetcher } from './workflow-worker.js';
import type { WorkerPayloads } from './worker-payloads.js';

/** What a {@link QueryAnswerer} answers with. */
export interface QueryAnswererOptions {
  readonly bundle: WorkflowBundle;
  /** The workflow worker's cache: a run held there answers without a replay. */
  readonly cache: WorkflowCache;
  readonly history: HistoryFetcher;
  readonly dataConverter: DataConverter;
  readonly deadlockTimeoutMs?: number;
  /** The worker's payload codecs: arguments and history decoded, the answer encoded under the run's subject. */
  readonly payloads?: WorkerPayloads;
}

/**
 * Answers a query task, however it arrived (a query topic or the gateway's HTTP polls). Nothing is
 * written: the caller sends the answer.
 *
 * Consistency: a query carries the latest workflow task it must see
 * (`workflowTaskScheduledEventId`). A cached run that has processed that task answers at once;
 * otherwise the answerer pages history up to the query's `lastEventId` into a throwaway run, runs
 * the pending task's code there if there is one (its commands are discarded), and answers from
 * that. So a query after a signal sees the signal.
 */
export class QueryAnswerer {
  constructor(private readonly options: QueryAnswererOptions) {}

  /** Answers from the cached run when it has seen what the query must see; otherwise replays. */
  async answer(task: QueryTask): Promise<{ result: QueryResult; source: 'cache' | 'replay' }> {
    const payloads = this.options.payloads;
    if (!payloads) return this.answerDecoded(task);
    let decoded: QueryTask;
    try {
      decoded = await payloads.decode(task);
    } catch (error) {
      return { result: failed(QueryFailureCode.QueryFailed, `could not decode the arguments of query '${task.queryType}': ${messageOf(error)}`), source: 'replay' };
    }
    const { subject, ...answer } = await this.answerDecoded(decoded);
    if (answer.result.type !== 'answered') return answer;
    return { ...answer, result: { ...answer.result, result: await payloads.encode(answer.result.result, subject) } };
  }

  /** The answer, and the subject of the run's start input (from the cache entry or the history replayed). */
  private async answerDecoded(task: QueryTask): Promise<{ result: QueryResult; source: 'cache' | 'replay'; subject?: string | undefined }> {
    const { cache } = this.options;
    const cached = cache.get(task.runId);
    if (cached && cached.lastEventId >= task.workflowTaskScheduledEventId) {
      try {
        return { result: cached.query(task.queryType, task.args), source: 'cache', subject: cache.subjectOf(task.runId) };
      } catch (error) {
        // The cached run failed or was interrupted; the next workflow task evicts it. Replay.
        if (!(error instanceof EvictionRequiredError)) throw error;
      }
    }
    return { ...(await this.replay(task)), source: 'replay' };
  }

  private async replay(task: QueryTask): Promise<{ result: QueryResult; subject?: string | undefined }> {
    let fetched: { events: HistoryEvent[]; subject: string | undefined };
    try {
      fetched = await this.fetchHistory(task);
    } catch (error) {
      // Retriable trouble (a shard moving) keeps its code so the asker can retry.
      const code = error instanceof LogbookError && error.retriable ? error.code : QueryFailureCode.QueryFailed;
      return { result: failed(code, `could not read the history of run ${task.runId} to answer query '${task.queryType}': ${messageOf(error)}`) };
    }
    return { result: this.replayed(task, fetched.events), subject: fetched.subject };
  }

  /** The run's history up to the query, decoded when the worker has codecs, with its start input's subject. */
  private async fetchHistory(task: QueryTask): Promise<{ events: HistoryEvent[]; subject: string | undefined }> {
    const { payloads, history } = this.options;
    if (payloads) return payloads.fetchHistory(history, task, task.lastEventId);
    return { events: await history.fetch(task, task.lastEventId), subject: undefined };
  }

  private replayed(task: QueryTask, history: HistoryEvent[]): QueryResult {
    const first = history[0];
    if (first?.attributes.type !== 'WorkflowExecutionStarted') {
      return failed(QueryFailureCode.QueryFailed, `the history of run ${task.runId} does not start with WorkflowExecutionStarted`);
    }
    const identity = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: first.workflowType, taskQueue: first.taskQueue };
    const run = WorkflowRun.create(this.options.bundle, identity, {
      dataConverter: this.options.dataConverter,
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
