/**
 * ResetWorkflowExecution (Temporal's reset): a new run of the same workflow id whose history is
 * the base run's events up to the chosen workflow task's WorkflowTaskStarted, then a
 * WorkflowTaskFailed naming the reset, the signals the base run received after the reset point
 * (Temporal's default reapply) and the outcomes of the children it inherits that started or ended
 * after the point (`reset-children.ts`), and a new workflow task — so the worker's current code
 * decides again from that point, without running again what completed before it. The base run, if open,
 * is terminated with reason "reset"; both happen in one transition (one transaction).
 *
 * The request carries the base run's events (the state machine reads no history) and the base
 * run's last event id when they were read; a run that moved on since is refused with
 * `ResetBaseChanged` so the sender re-reads. The new run id is derived from the base run id and
 * the request id, and the request id is remembered by the new run: a redelivered request is
 * answered with the same run.
 * @module
 */
import type { CommandBodyOf, ResetBaseEvent } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { makePayload } from '../../topics/payload/payload.js';
import { activityTaskIntentOf } from './activity-tasks.js';
import { rememberRequestId, seenRequestId } from './client-requests.js';
import { terminateRun } from './close-run.js';
import { appendEvent, engineFailure, reject, type Ctx } from './context.js';
import { resetRunIdOf } from './deterministic-seed.js';
import { cloneData } from './plain-data.js';
import { resetPointOf, type ResetPoint } from './reset-point.js';
import { childOutcomeOf, isReappliedChildOutcome, reapplyChildOutcome, type ChildOutcome } from './reset-children.js';
import { resetRunState } from './reset-state.js';
import { moveUpdateCallers } from './reset-updates.js';
import { RejectionCode } from './transition.js';
import { visibilityRowOf } from './visibility.js';
import { scheduleWorkflowTask } from './workflow-task-schedule.js';

type ResetRequest = CommandBodyOf<'ResetWorkflowExecution'>;
type SignalAttributes = Extract<ResetBaseEvent['attributes'], { type: 'WorkflowExecutionSignaled' }>;
/** What a reset re-applies after its point: the base run's signals and the outcomes of its inherited children. */
type Reapplied = SignalAttributes | ChildOutcome;

/** The reason a reset's old run is terminated with (Temporal's). */
export const RESET_TERMINATE_REASON = 'reset';

/** The failure code of the WorkflowTaskFailed a reset writes at the reset point. */
export const RESET_FAILURE_CODE = 'ResetWorkflow';

function answer(ctx: Ctx, runId: string): void {
  const replyTo = ctx.command?.replyTo;
  if (replyTo) ctx.replies.push({ requestId: replyTo.requestId, kind: 'StartAccepted', runId, payload: null, failure: null, executionStatus: null });
}

/** The kept events (1..reset point, contiguous) and the later events to re-apply, or why the request is malformed. */
function splitBaseEvents(body: ResetRequest, point: ResetPoint): { kept: ResetBaseEvent[]; reapplied: Reapplied[] } | string {
  const kept = body.baseEvents.filter((e) => e.eventId <= point.startedEventId);
  if (kept.some((e, i) => e.eventId !== i + 1) || kept.length !== point.startedEventId) {
    return `the request must carry the base run's events 1..${point.startedEventId} in order`;
  }
  const later = body.baseEvents.filter((e) => e.eventId > body.workflowTaskEventId);
  const reappliable = (e: ResetBaseEvent) => e.attributes.type === 'WorkflowExecutionSignaled' || isReappliedChildOutcome(e, point.startedEventId);
  const other = later.find((e) => !reappliable(e) || e.eventId > body.baseLastEventId);
  if (other) return `event ${other.eventId} (${other.attributes.type}) after the reset point is neither a signal of the base run nor the outcome of a child initiated before the point, to re-apply`;
  return { kept, reapplied: later.map((e) => e.attributes as Reapplied) };
}

/** Refuses a reset that cannot be applied to `state` as sent; returns its reset point otherwise. */
function checkedRequest(ctx: Ctx, body: ResetRequest): { point: ResetPoint; kept: ResetBaseEvent[]; reapplied: Reapplied[] } | null {
  const info = ctx.state.executionInfo;
  if (body.baseLastEventId !== info.lastEventId) {
    reject(ctx, RejectionCode.ResetBaseChanged, `run ${info.runId} is at event ${info.lastEventId}, the reset was built from its history up to event ${body.baseLastEventId}: read it again`);
    return null;
  }
  if (body.workflowTaskEventId < 1 || body.workflowTaskEventId > info.lastEventId) {
    reject(ctx, RejectionCode.InvalidArgument, `event ${body.workflowTaskEventId} is not in run ${info.runId} (its events are 1..${info.lastEventId})`);
    return null;
  }
  const point = resetPointOf(body.baseEvents, body.workflowTaskEventId);
  if ('problem' in point) {
    reject(ctx, RejectionCode.InvalidArgument, point.problem);
    return null;
  }
  const split = splitBaseEvents(body, point);
  if (typeof split === 'string') {
    reject(ctx, RejectionCode.InvalidArgument, split);
    return null;
  }
  return { point, ...split };
}

/**
 * Closes the base run if it is open; returns what it held back behind its workflow task (signals
 * and child outcomes, re-applied) and the callers that follow the chain. The children and the
 * update callers the new run inherits are taken from the base run first, so that its termination
 * neither applies their parent close policy nor tells those callers the run closed.
 */
function closeBase(ctx: Ctx, rebuilt: MutableStateSnapshot, identity: string): { buffered: Reapplied[]; followers: MutableStateSnapshot['resultWaiters'] } {
  const base = ctx.state;
  const buffered = base.bufferedEvents.map((e) => e.attributes)
    .filter((a): a is Reapplied => a.type === 'WorkflowExecutionSignaled' || childOutcomeOf(a) !== null);
  // Callers following the chain's result move to the new run, as with continue-as-new.
  const followers = base.resultWaiters.filter((w) => w.followRuns);
  if (base.executionInfo.status !== 'Running') return { buffered: [], followers: [] };
  base.resultWaiters = base.resultWaiters.filter((w) => !w.followRuns);
  const inherited = new Set(rebuilt.pendingChildren.map((c) => c.initiatedEventId));
  base.pendingChildren = base.pendingChildren.filter((c) => !inherited.has(c.initiatedEventId));
  moveUpdateCallers(base, rebuilt);
  terminateKeepingParent(ctx, identity);
  ctx.closedRun = { state: cloneData(base), visibility: visibilityRowOf(base) };
  return { buffered, followers };
}

/**
 * Terminates the base run without telling its parent that it ended: the new run keeps the parent
 * (and the child's place in it), and the parent hears when the chain ends, as across continue-as-new.
 */
function terminateKeepingParent(ctx: Ctx, identity: string): void {
  const info = ctx.state.executionInfo;
  const parent = info.parent;
  info.parent = null;
  terminateRun(ctx, RESET_TERMINATE_REASON, null, identity);
  info.parent = parent;
}

/** Appends a re-applied event to the new run: a signal counts as one, a child outcome applies only to a child the run has pending. */
function reapply(ctx: Ctx, event: Reapplied): void {
  if (event.type !== 'WorkflowExecutionSignaled') {
    reapplyChildOutcome(ctx, event);
    return;
  }
  ctx.state.signalCount++;
  appendEvent(ctx, event);
}

/** ResetWorkflowExecution: see the module comment. */
export function resetWorkflow(ctx: Ctx, body: ResetRequest): void {
  const requestId = ctx.command?.requestId ?? '';
  const current = ctx.state.executionInfo.runId;
  if (body.baseRunId !== current) {
    if (seenRequestId(ctx.state, requestId)) answer(ctx, current);
    else reject(ctx, RejectionCode.RunNotFound, `run ${body.baseRunId} of workflow ${ctx.state.executionInfo.workflowId} is not its current run (${current}); only the current run can be reset`);
    return;
  }
  const checked = checkedRequest(ctx, body);
  if (!checked) return;
  const newRunId = resetRunIdOf(current, requestId);
  const rebuilt = resetRunState({ base: ctx.state, kept: checked.kept, newRunId, now: ctx.now, unclaimedCancelGraceMs: ctx.config.unclaimedActivityCancelGraceMs });
  if ('code' in rebuilt) {
    reject(ctx, rebuilt.code, rebuilt.message);
    return;
  }
  const { buffered, followers } = closeBase(ctx, rebuilt, body.identity);
  ctx.state = rebuilt;
  ctx.activityStartedIds.clear();
  ctx.childStartedIds.clear();
  for (const event of checked.kept) appendEvent(ctx, event.attributes, event.eventTime);
  appendEvent(ctx, {
    type: 'WorkflowTaskFailed', scheduledEventId: checked.point.scheduledEventId, startedEventId: checked.point.startedEventId,
    // The v1 cause enum has no ResetWorkflow symbol; UnhandledCommand is Temporal's cause for a
    // task whose work the server discards in favour of a new task, and the failure code says why.
    cause: 'UnhandledCommand', failure: resetFailure(body.reason, current, newRunId), identity: body.identity,
  });
  for (const event of [...checked.reapplied, ...buffered]) reapply(ctx, event);
  scheduleWorkflowTask(ctx, 1);
  for (const activity of rebuilt.pendingActivities) ctx.tasks.push(activityTaskIntentOf(rebuilt, activity));
  rememberRequestId(ctx, requestId);
  rebuilt.resultWaiters = followers;
  ctx.visibilityChanged = true;
  answer(ctx, newRunId);
}

/** The failure of the reset point's WorkflowTaskFailed: the reason, and both runs as JSON details. */
function resetFailure(reason: string, baseRunId: string, newRunId: string) {
  const details = makePayload('json/plain', Buffer.from(JSON.stringify({ reason, baseRunId, newRunId }), 'utf8'));
  return engineFailure(RESET_FAILURE_CODE, reason || 'reset', details);
}
