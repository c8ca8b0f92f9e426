import { LogbookError } from '../../topics/errors.js';
import { GatewayAccess } from '../common/gateway-access.js';

/**
 * What a query must know about the run it asks, read from the shard that owns the run (a read,
 * never a command: nothing goes through the shard's transaction and nothing is written): which
 * run, which task queue's workers to ask, and how much of the run the answer must reflect.
 */
export interface QueryTarget {
  readonly runId: string;
  readonly taskQueue: string;
  /** The run's last event when the query is sent: the answer reflects history up to here. */
  readonly lastEventId: number;
  /** The latest workflow task the answer must include: the pending one, else the last completed one; 0 for none. */
  readonly workflowTaskScheduledEventId: number;
  /**
   * Events (signals, results) arrived while a workflow task was in flight and wait to be appended
   * when it ends; no task the query could name contains them yet, so the query must locate again.
   */
  readonly eventsBuffered?: boolean;
}

/**
 * Finds the target of a query: the current run of `workflowId`, or the run `runId`.
 * @throws LogbookError `WorkflowNotFound` / `RunNotFound` when there is no such workflow or run
 */
export type RunLocator = (namespace: string, workflowId: string, runId?: string) => Promise<QueryTarget>;

/** The parts of a run's mutable state (decoded, or its JSON view) a query target is made of. */
export interface RunStateView {
  readonly executionInfo: {
    readonly runId: string;
    readonly taskQueue: string;
    readonly lastEventId: number;
    readonly lastWorkflowTaskCompletedEventId: number | null;
  };
  readonly pendingWorkflowTask: { readonly scheduledEventId: number } | null;
  readonly bufferedEvents?: readonly unknown[];
}

/**
 * The target of a query to the run `state` describes. A completed workflow task's events are
 * Scheduled, Started, Completed with consecutive ids — nothing is appended while a task is in
 * flight, and a transient attempt writes all three at once (`processors/history/workflow-task-*.ts`)
 * — so the last completed task was scheduled two events before its WorkflowTaskCompleted.
 */
export function queryTargetOf(state: RunStateView): QueryTarget {
  const info = state.executionInfo;
  const completed = info.lastWorkflowTaskCompletedEventId;
  return {
    runId: info.runId,
    taskQueue: info.taskQueue,
    lastEventId: info.lastEventId,
    workflowTaskScheduledEventId: state.pendingWorkflowTask?.scheduledEventId ?? (completed === null ? 0 : completed - 2),
    eventsBuffered: (state.bufferedEvents?.length ?? 0) > 0,
  };
}

/** The parts of a history event a query target of a past run is made of. */
export interface HistoryEventView {
  readonly eventId: number;
  readonly taskQueue: string;
  readonly attributes: { readonly type: string; readonly scheduledEventId?: number };
}

/**
 * The target of a query to a run that is not the workflow's current one (so it is closed), from
 * its history: everything it recorded, up to its last completed workflow task.
 * @throws LogbookError `RunNotFound` when the history is empty
 */
export function queryTargetOfHistory(workflowId: string, runId: string, events: readonly HistoryEventView[]): QueryTarget {
  const last = events.at(-1);
  if (last === undefined) throw new LogbookError('RunNotFound', `workflow ${workflowId} has no run ${runId}`);
  const completed = events.findLast((e) => e.attributes.type === 'WorkflowTaskCompleted');
  return { runId, taskQueue: last.taskQueue, lastEventId: last.eventId, workflowTaskScheduledEventId: completed?.attributes.scheduledEventId ?? 0 };
}

/**
 * Locates runs through a gateway's HTTP API (`GET …/workflows/{id}`, forwarded to the shard's
 * owner by the gateway), for clients that write to Kafka but have no engine in their process.
 * Given a {@link GatewayAccess}, the reads carry its credentials.
 * @example
 * const { client } = await connectLogClient(log, catalog, { locateRun: gatewayRunLocator('http://127.0.0.1:8233') });
 * const status = await client.query('order-1', 'status');
 */
export function gatewayRunLocator(address: string | GatewayAccess): RunLocator {
  const access = typeof address === 'string' ? new GatewayAccess(address) : address;
  return async (namespace, workflowId, runId) => {
    const base = `${access.baseUrl}/api/v1/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
    const state = await getJson<RunStateView>(access, base);
    if (runId === undefined || runId === state.executionInfo.runId) return queryTargetOf(state);
    const { events } = await getJson<{ events: HistoryEventView[] }>(access, `${base}/history?raw=1&runId=${encodeURIComponent(runId)}`);
    return queryTargetOfHistory(workflowId, runId, events);
  };
}

async function getJson<T>(access: GatewayAccess, url: string): Promise<T> {
  const response = await access.fetch(url);
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  if (!response.ok) {
    throw new LogbookError(body.code ?? 'HTTP_ERROR', body.message ?? `GET ${url}: HTTP ${response.status}`, { retriable: response.status >= 500 });
  }
  return body as T;
}
