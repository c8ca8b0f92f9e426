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
import { cancelActivityIntentOf, findActivity } from './activity-tasks.js';
import { decideRetry, normalizeRetryPolicy } from './retry-policy.js';

/** An activity's closing event; `startedEventId` is 0 (the Started written with it) or null (never claimed). */
export type ActivityClosing = HistoryEventAttributesOf<'ActivityTaskCompleted' | 'ActivityTaskFailed' | 'ActivityTaskTimedOut' | 'ActivityTaskCanceled'>;

/** Records a claim of the current attempt (the worker's, or implied by a result that came first). */
export function claimActivity(ctx: Ctx, activity: PendingActivityInfo, identity: string, requestId: string): void {
  activity.startedTime = ctx.now;
  activity.startedIdentity = identity;
  activity.startedRequestId = requestId;
}

function forget(ctx: Ctx, activity: PendingActivityInfo): void {
  const state = ctx.state;
  state.pendingActivities = state.pendingActivities.filter((a) => a.scheduledEventId !== activity.scheduledEventId);
  state.activitiesAwaitingBackoff = state.activitiesAwaitingBackoff.filter((id) => id !== activity.scheduledEventId);
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

/**
 * RequestCancelActivityTask: writes ActivityTaskCancelRequested; an unclaimed attempt is canceled
 * at once (ActivityTaskCanceled, and the workflow must hear of it: returns true), a claimed one is
 * told to stop through the control topic and closes when its worker answers.
 */
export function requestCancelActivity(ctx: Ctx, scheduledEventId: number, workflowTaskCompletedEventId: number, identity: string): boolean {
  const requested = appendEvent(ctx, { type: 'ActivityTaskCancelRequested', scheduledEventId, workflowTaskCompletedEventId });
  const activity = findActivity(ctx.state, scheduledEventId);
  // Not pending: its closing events are buffered and follow; nothing more to do.
  if (!activity) return false;
  if (activity.startedTime === null) {
    forget(ctx, activity);
    appendEvent(ctx, {
      type: 'ActivityTaskCanceled', details: null, latestCancelRequestedEventId: requested.eventId, scheduledEventId,
      startedEventId: null, identity,
    });
    return true;
  }
  activity.cancelRequested = true;
  activity.cancelRequestedEventId = requested.eventId;
  ctx.tasks.push(cancelActivityIntentOf(ctx.state, activity, 'cancel requested by the workflow'));
  return false;
}
