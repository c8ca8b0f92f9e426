/**
 * Closing a run: by a workflow command (complete, fail, cancel), by termination or by a run /
 * execution timeout. Whatever was pending is dropped, claimed activities are told to stop, and
 * every caller waiting for the result is answered (callers of updates in flight with an error).
 * @module
 */
import type { RetryState, WorkflowExecutionStatus } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Payload } from '../../topics/payload/payload.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, engineFailure, type Ctx } from './context.js';
import { flushBuffered } from './delivery.js';
import { cancelActivityIntentOf, mayBeRunning } from './activity-tasks.js';
import { notifyParentOfClose } from './child-answers.js';
import { applyParentClosePolicies, PARENT_CLOSE_POLICY_IDENTITY } from './child-workflows.js';
import { abortUpdatesInFlight } from './updates.js';

/** How a run ended: its result, or why it has none. */
export interface RunOutcome {
  status: Exclude<WorkflowExecutionStatus, 'Running'>;
  result: Payload | null;
  failure: Failure | null;
  /** Why a failed or timed-out run was not retried, as its closing event records it (a parent is told the same). */
  retryState?: RetryState;
}

/** The Result reply a waiter gets from a closed run. */
export function resultReply(state: MutableStateSnapshot, requestId: string): Reply {
  return {
    requestId, kind: 'Result', runId: state.executionInfo.runId, payload: state.closeResult,
    failure: state.closeFailure, executionStatus: state.executionInfo.status,
  };
}

/**
 * Marks the run closed after its closing event was appended: clears pending work, sends
 * CancelActivity for attempts a worker may be running, answers the result waiters, updates visibility, applies
 * the parent close policy of each pending child and tells a parent that its child ended.
 */
export function closeRun(ctx: Ctx, outcome: RunOutcome): void {
  const state = ctx.state;
  for (const activity of state.pendingActivities) {
    if (mayBeRunning(state, activity)) ctx.tasks.push(cancelActivityIntentOf(state, activity, `workflow ${outcome.status}`));
  }
  state.executionInfo.status = outcome.status;
  state.executionInfo.closeTime = ctx.now;
  state.pendingActivities = [];
  state.activitiesAwaitingBackoff = [];
  state.activityCancelDeadlines = [];
  state.pendingTimers = [];
  state.pendingWorkflowTask = null;
  state.workflowTaskDispatched = true;
  state.bufferedEvents = [];
  state.closeResult = outcome.result;
  state.closeFailure = outcome.failure;
  for (const waiter of state.resultWaiters) ctx.replies.push(resultReply(state, waiter.replyTo.requestId));
  state.resultWaiters = [];
  abortUpdatesInFlight(ctx, outcome.status);
  ctx.visibilityChanged = true;
  applyParentClosePolicies(ctx, `closed ${outcome.status}`, PARENT_CLOSE_POLICY_IDENTITY);
  notifyParentOfClose(ctx, outcome);
}

/**
 * Closes the run from outside its code: the in-flight workflow task is dropped without events,
 * buffered events are appended, then the closing event.
 */
function closeFromOutside(ctx: Ctx, append: () => void, outcome: RunOutcome): void {
  ctx.state.pendingWorkflowTask = null;
  flushBuffered(ctx);
  append();
  closeRun(ctx, outcome);
}

/** Terminates the run at once (TerminateWorkflowExecution, or a start with TerminateExisting). */
export function terminateRun(ctx: Ctx, reason: string, details: Payload | null, identity: string): void {
  closeFromOutside(
    ctx,
    () => appendEvent(ctx, { type: 'WorkflowExecutionTerminated', reason, details, identity }),
    { status: 'Terminated', result: null, failure: engineFailure('Terminated', reason || 'terminated', details) },
  );
}

/**
 * Times the run out (run or execution timeout) for good; `retryState` says why it is not retried
 * (`workflow-retry.ts` decides, and hands over to a new run instead when the policy allows).
 */
export function timeOutRun(ctx: Ctx, executionTimeout: boolean, retryState: RetryState): void {
  const what = executionTimeout ? 'execution' : 'run';
  closeFromOutside(
    ctx,
    () => appendEvent(ctx, { type: 'WorkflowExecutionTimedOut', retryState, newExecutionRunId: null }),
    { status: 'TimedOut', result: null, failure: engineFailure('TimedOut', `workflow ${what} timeout`), retryState },
  );
}
