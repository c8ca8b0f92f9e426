/**
 * How an activity attempt ends: retried (no history: the attempt, last failure and heartbeat
 * stay in the state) or closed for good, which writes the final attempt's ActivityTaskStarted
 * (when it was claimed) and its closing event, appended or buffered together.
 * @module
 */
import type { TimeoutType, RetryState } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEventAttributes, HistoryEventAttributesOf } from '../../topics/schemas/history-event/index.js';
import type { PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { deliver } from './delivery.js';
import { cancelActivityIntentOf, dropCancelDeadline, findActivity, mayBeRunning, unclaimedCancelDeadline } from './activity-tasks.js';
import { decideRetry, normalizeRetryPolicy } from './retry-policy.js';

/** An activity's closing event; `startedEventId` is 0 (the Started written with it) or null (never claimed). */
export type ActivityClosing = HistoryEventAttributesOf<'ActivityTaskCompleted' | 'ActivityTaskFailed' | 'ActivityTaskTimedOut' | 'ActivityTaskCanceled'>;

/** Records a claim of the current attempt (the worker's, or implied by a result that came first). */
export function claimActivity(ctx: Ctx, activity: PendingActivityInfo, identity: string, requestId: string): void {
  activity.startedTime = ctx.now;
  activity.startedIdentity = identity;
  activity.startedRequestId = requestId;
  // A worker speaks for the attempt: an unclaimed cancellation's grace is over.
  dropCancelDeadline(ctx.state, activity.scheduledEventId);
}

function forget(ctx: Ctx, activity: PendingActivityInfo): void {
  const state = ctx.state;
  state.pendingActivities = state.pendingActivities.filter((a) => a.scheduledEventId !== activity.scheduledEventId);
  state.activitiesAwaitingBackoff = state.activitiesAwaitingBackoff.filter((id) => id !== activity.scheduledEventId);
  dropCancelDeadline(state, activity.scheduledEventId);
}

/** Closes the activity: (Started +) `closing(startedEventId)`, delivered to the workflow. */
export function endActivity(ctx: Ctx, activity: PendingActivityInfo, closing: (startedEventId: 0 | null) => ActivityClosing): void {
  forget(ctx, activity);
  const events: HistoryEventAttributes[] = [];
  if (activity.startedTime !== null) {
    events.push({
      type: 'ActivityTaskStarted', scheduledEventId: activity.scheduledEventId, identity: activity.startedIdentity ?? '',
      requestId: activity.startedRequestId ?? '', attempt: activity.attempt, lastFailure: activity.lastFailure,
    });
  }
  events.push(closing(activity.startedTime === null ? null : 0));
  deliver(ctx, events);
}

/** Schedules the next attempt after `backoffMs`; nothing is written to history. */
function retryActivity(ctx: Ctx, activity: PendingActivityInfo, failure: Failure, backoffMs: number): void {
  activity.attempt += 1;
  activity.lastFailure = failure;
  activity.startedTime = null;
  activity.startedIdentity = null;
  activity.startedRequestId = null;
  activity.lastHeartbeatTime = null;
  activity.currentAttemptScheduledTime = ctx.now + backoffMs;
  ctx.state.activitiesAwaitingBackoff.push(activity.scheduledEventId);
}

/** The current attempt failed: retry it per the policy, or close the activity with `closing`. */
export function failAttempt(
  ctx: Ctx,
  activity: PendingActivityInfo,
  failure: Failure,
  closing: (retryState: RetryState, startedEventId: 0 | null) => ActivityClosing,
): void {
  const decision = decideRetry({
    policy: normalizeRetryPolicy(activity.retryPolicy), attempt: activity.attempt, failure, now: ctx.now,
    deadline: activity.retryDeadline, cancelRequested: activity.cancelRequested,
  });
  if (decision.retry) retryActivity(ctx, activity, failure, decision.backoffMs);
  else endActivity(ctx, activity, (startedEventId) => closing(decision.retryState, startedEventId));
}

/** The failure recorded for a timed-out attempt (`cause`: the attempt's previous failure, if any). */
export function activityTimeoutFailure(type: TimeoutType, activity: PendingActivityInfo, cause: Failure | null): Failure {
  return {
    message: `activity ${activity.activityType} (${activity.activityId}) ${type} timeout`, source: 'Logbook',
    stackTrace: '', code: 'ActivityTimeout', nonRetryable: false,
    details: type === 'Heartbeat' ? activity.lastHeartbeatDetails : null, cause,
  };
}

/**
 * An activity deadline passed. Start-to-close and heartbeat timeouts fail the attempt (retried
 * per the policy); schedule-to-start (Temporal: never retried) and schedule-to-close end it.
 */
export function timeOutActivity(ctx: Ctx, activity: PendingActivityInfo, type: TimeoutType): void {
  const timedOut = (retryState: RetryState) => (startedEventId: 0 | null): ActivityClosing => ({
    type: 'ActivityTaskTimedOut', failure: activityTimeoutFailure(type, activity, activity.lastFailure),
    scheduledEventId: activity.scheduledEventId, startedEventId, timeoutType: type, retryState,
  });
  switch (type) {
    case 'StartToClose':
    case 'Heartbeat':
      failAttempt(ctx, activity, activityTimeoutFailure(type, activity, null), (retryState, startedEventId) => timedOut(retryState)(startedEventId));
      return;
    case 'ScheduleToStart':
      endActivity(ctx, activity, timedOut('NonRetryableFailure'));
      return;
    case 'ScheduleToClose':
      endActivity(ctx, activity, timedOut('Timeout'));
      return;
  }
}

/** The identity of an activity cancellation the engine completes itself, no worker having answered. */
export const UNCLAIMED_CANCEL_IDENTITY = 'logbook-unclaimed-cancel';

/**
 * RequestCancelActivityTask: writes ActivityTaskCancelRequested. An attempt that runs nowhere (it
 * waits for its retry backoff) is canceled at once (ActivityTaskCanceled, and the workflow must hear
 * of it: returns true). Any other is told to stop through the control topic and closes when its
 * worker answers — a dispatched attempt too while it is unclaimed, since workers claim an attempt
 * only once it has run for a moment (`sdk/worker/deferred-claim.ts`): if no worker claims or
 * answers it within `HistoryConfig.unclaimedActivityCancelGraceMs`, it was not running and
 * the engine cancels it (see {@link cancelUnclaimedActivity}).
 */
export function requestCancelActivity(ctx: Ctx, scheduledEventId: number, workflowTaskCompletedEventId: number, identity: string): boolean {
  const requested = appendEvent(ctx, { type: 'ActivityTaskCancelRequested', scheduledEventId, workflowTaskCompletedEventId });
  const activity = findActivity(ctx.state, scheduledEventId);
  // Not pending: its closing events are buffered and follow; nothing more to do.
  if (!activity) return false;
  activity.cancelRequested = true;
  activity.cancelRequestedEventId = requested.eventId;
  if (!mayBeRunning(ctx.state, activity)) {
    forget(ctx, activity);
    appendEvent(ctx, canceledUnclaimed(activity, identity));
    return true;
  }
  ctx.tasks.push(cancelActivityIntentOf(ctx.state, activity, 'cancel requested by the workflow'));
  if (activity.startedTime === null) ctx.state.activityCancelDeadlines.push(unclaimedCancelDeadline(activity, ctx.now, ctx.config.unclaimedActivityCancelGraceMs));
  return false;
}

/**
 * The grace of an unclaimed activity asked to cancel ended with no worker claiming or answering
 * it: nobody runs it, and it is canceled (a worker that claimed it meanwhile holds it: nothing).
 */
export function cancelUnclaimedActivity(ctx: Ctx, scheduledEventId: number): void {
  const activity = findActivity(ctx.state, scheduledEventId);
  if (!activity || activity.startedTime !== null || !activity.cancelRequested) return;
  forget(ctx, activity);
  deliver(ctx, [canceledUnclaimed(activity, UNCLAIMED_CANCEL_IDENTITY)]);
}

/** The closing event of an unclaimed activity asked to cancel: no Started precedes it. */
function canceledUnclaimed(activity: PendingActivityInfo, identity: string): ActivityClosing {
  return {
    type: 'ActivityTaskCanceled', details: null, latestCancelRequestedEventId: activity.cancelRequestedEventId ?? 0,
    scheduledEventId: activity.scheduledEventId, startedEventId: null, identity,
  };
}
