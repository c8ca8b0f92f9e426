/**
 * Which calls of the gateway API the audit trail records, and under which action name. Every
 * mutating route (POST, PUT, PATCH, DELETE) is listed here, audited or not with the reason; the
 * audit test reads the routes of the app and fails on one this file does not classify.
 * @module
 */

const NS = '/api/v1/namespaces/:namespace';
const WF = `${NS}/workflows/:workflowId`;
const SCHEDULE = `${NS}/schedules/:scheduleId`;

/** A mutating route the audit trail records. */
export interface AuditedRoute {
  readonly method: string;
  /** The express route pattern, recorded as is (never the raw path: it would vary per call). */
  readonly route: string;
  readonly action: string;
}

/** A mutating route that is not an operator's change, so it is not recorded, and why. */
export interface UnauditedRoute {
  readonly method: string;
  readonly route: string;
  readonly reason: string;
}

const audited = (method: string, route: string, action: string): AuditedRoute => ({ method, route, action });

/** Every audited route. Schedules and ingress mappings are named by the route's `:scheduleId` / `:name`, kept in `resourceId`. */
export const AUDITED_ROUTES: readonly AuditedRoute[] = [
  audited('POST', '/api/v1/namespaces', 'RegisterNamespace'),
  audited('PUT', NS, 'UpdateNamespace'),
  audited('PATCH', NS, 'UpdateNamespace'),
  audited('POST', `${NS}/workflows`, 'StartWorkflow'),
  audited('POST', `${WF}/signal-with-start`, 'SignalWithStartWorkflow'),
  audited('POST', `${WF}/signals/:signalName`, 'SignalWorkflow'),
  audited('POST', `${WF}/cancel`, 'CancelWorkflow'),
  audited('POST', `${WF}/terminate`, 'TerminateWorkflow'),
  audited('POST', `${WF}/reset`, 'ResetWorkflow'),
  audited('POST', `${WF}/update/:updateName`, 'UpdateWorkflow'),
  audited('POST', `${WF}/update-with-start/:updateName`, 'UpdateWithStartWorkflow'),
  audited('POST', `${NS}/activities/complete`, 'CompleteActivity'),
  audited('POST', `${NS}/activities/fail`, 'FailActivity'),
  audited('POST', `${NS}/activities/report-cancellation`, 'ReportActivityCancellation'),
  audited('POST', `${NS}/schedules`, 'CreateSchedule'),
  audited('PUT', SCHEDULE, 'UpdateSchedule'),
  audited('DELETE', SCHEDULE, 'DeleteSchedule'),
  audited('POST', `${SCHEDULE}/pause`, 'PauseSchedule'),
  audited('POST', `${SCHEDULE}/unpause`, 'UnpauseSchedule'),
  audited('POST', `${SCHEDULE}/trigger`, 'TriggerSchedule'),
  audited('POST', `${SCHEDULE}/backfill`, 'BackfillSchedule'),
  audited('PUT', '/api/v1/ingress/:name', 'PutIngressMapping'),
  audited('DELETE', '/api/v1/ingress/:name', 'DeleteIngressMapping'),
];

const TASKS = `${NS}/task-queues/:taskQueue`;
const WORKER_TASK_CALL = 'a worker serving its task queue, not an operator: tasks are answered by the worker code the operator deployed, and the history records what they did';

/** Every mutating route that is deliberately not audited. */
export const UNAUDITED_ROUTES: readonly UnauditedRoute[] = [
  { method: 'POST', route: `${WF}/query/:queryName`, reason: 'a query reads a workflow and changes nothing' },
  ...['workflow-tasks/poll', 'workflow-tasks/complete', 'workflow-tasks/fail', 'activity-tasks/poll', 'activity-tasks/complete', 'activity-tasks/fail', 'activity-tasks/canceled', 'activity-tasks/heartbeat', 'query-tasks/poll', 'query-tasks/answer'].map(
    (call) => ({ method: 'POST', route: `${TASKS}/${call}`, reason: WORKER_TASK_CALL }),
  ),
  { method: 'POST', route: `${NS}/activities/heartbeat`, reason: 'a heartbeat says an activity is alive; recording each would bury the trail' },
  { method: 'POST', route: '/api/v1/worker-reports', reason: "a worker's telemetry for the node's metrics" },
  { method: 'POST', route: '/codec/encode', reason: 'the codec transforms payloads for the caller and changes nothing' },
  { method: 'POST', route: '/codec/decode', reason: 'the codec transforms payloads for the caller and changes nothing' },
];

/** What a request matched in the audit table. */
export type AuditMatch = { readonly audited: AuditedRoute; readonly params: Readonly<Record<string, string>> } | { readonly audited: undefined };

/**
 * The audited route a request is a call of, with its path parameters; `audited` is undefined for
 * reads, unaudited routes and paths that are no route at all. Matched here rather than read from
 * express's `req.route`, because a call refused before any route ran (a bad namespace, a missing
 * token) is still an attempt to change something, and is recorded.
 */
export function auditedRouteOf(method: string, path: string): AuditMatch {
  for (const candidate of AUDITED_ROUTES) {
    if (candidate.method !== method) continue;
    const params = matchRoute(candidate.route, path);
    if (params) return { audited: candidate, params };
  }
  return { audited: undefined };
}

/**
 * The parameters of `path` under `pattern` (`:name` segments), or undefined when it does not match.
 * Literal segments match in any case, as express's routes do (not `caseSensitive`): otherwise
 * `POST …/TERMINATE` would terminate a run unrecorded.
 */
export function matchRoute(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const segment = got[i]!;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = safeDecode(segment);
    } else if (part.toLowerCase() !== segment.toLowerCase()) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
