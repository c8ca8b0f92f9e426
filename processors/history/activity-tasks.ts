/**
 * Scheduling activities and the task intents that send (or cancel) their attempts.
 * @module
 */
import type { WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { ActivityCancelDeadline, MutableStateSnapshot, PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { normalizeRetryPolicy } from './retry-policy.js';
import type { ActivityTaskIntent, CancelActivityIntent } from './transition.js';

/** The ScheduleActivityTask command's attributes. */
export type ScheduleActivity = WorkflowCommandAttributesMap['ScheduleActivityTask'];

/** The activity timeouts after Temporal's defaults and caps (null = none). */
export interface ActivityTimeouts {
  scheduleToCloseTimeoutMs: number | null;
  scheduleToStartTimeoutMs: number | null;
  startToCloseTimeoutMs: number | null;
  heartbeatTimeoutMs: number | null;
}

const positive = (ms: number | null): number | null => (ms !== null && ms > 0 ? ms : null);
const capped = (ms: number | null, cap: number | null): number | null => (ms !== null && cap !== null ? Math.min(ms, cap) : ms);

/**
 * Effective timeouts: start-to-close defaults to schedule-to-close; no per-attempt timeout may
 * exceed schedule-to-close, and the heartbeat timeout not start-to-close (Temporal).
 */
export function activityTimeoutsOf(command: ScheduleActivity): ActivityTimeouts {
  const scheduleToClose = positive(command.scheduleToCloseTimeoutMs);
  const startToClose = capped(positive(command.startToCloseTimeoutMs) ?? scheduleToClose, scheduleToClose);
  return {
    scheduleToCloseTimeoutMs: scheduleToClose,
    scheduleToStartTimeoutMs: capped(positive(command.scheduleToStartTimeoutMs), scheduleToClose),
    startToCloseTimeoutMs: startToClose,
    heartbeatTimeoutMs: capped(positive(command.heartbeatTimeoutMs), startToClose),
  };
}

/** Writes ActivityTaskScheduled (effective timeouts and retry policy), tracks the activity, sends attempt 1. */
export function scheduleActivity(ctx: Ctx, command: ScheduleActivity, workflowTaskCompletedEventId: number): void {
  const state = ctx.state;
  const timeouts = activityTimeoutsOf(command);
  const retryPolicy = normalizeRetryPolicy(command.retryPolicy);
  const taskQueue = command.taskQueue || state.executionInfo.taskQueue;
  const event = appendEvent(ctx, {
    type: 'ActivityTaskScheduled', activityId: command.activityId, activityType: command.activityType, taskQueue,
    header: command.header, input: command.input, ...timeouts, workflowTaskCompletedEventId, retryPolicy,
  });
  const activity: PendingActivityInfo = {
    scheduledEventId: event.eventId, activityId: command.activityId, activityType: command.activityType, taskQueue,
    attempt: 1, scheduledTime: ctx.now, currentAttemptScheduledTime: ctx.now, startedTime: null, startedIdentity: null,
    startedRequestId: null, lastHeartbeatTime: null, lastHeartbeatDetails: null, lastFailure: null, ...timeouts,
    retryPolicy, retryDeadline: timeouts.scheduleToCloseTimeoutMs === null ? null : ctx.now + timeouts.scheduleToCloseTimeoutMs,
    cancelRequested: false, cancelRequestedEventId: null,
  };
  state.pendingActivities.push(activity);
  ctx.tasks.push(activityTaskIntentOf(state, activity));
}

/** The intent that sends the current attempt of `activity`. */
export function activityTaskIntentOf(state: MutableStateSnapshot, activity: PendingActivityInfo): ActivityTaskIntent {
  const info = state.executionInfo;
  return {
    type: 'ActivityTask', namespace: info.namespace, workflowId: info.workflowId, runId: info.runId,
    workflowType: info.workflowType, taskQueue: activity.taskQueue, activityId: activity.activityId,
    activityType: activity.activityType, scheduledEventId: activity.scheduledEventId, attempt: activity.attempt,
    scheduledTime: activity.scheduledTime, currentAttemptScheduledTime: activity.currentAttemptScheduledTime,
    heartbeatDetails: activity.lastHeartbeatDetails, scheduleToCloseTimeoutMs: activity.scheduleToCloseTimeoutMs,
    scheduleToStartTimeoutMs: activity.scheduleToStartTimeoutMs, startToCloseTimeoutMs: activity.startToCloseTimeoutMs,
    heartbeatTimeoutMs: activity.heartbeatTimeoutMs, retryPolicy: normalizeRetryPolicy(activity.retryPolicy),
  };
}

/** The intent that tells the workers of the activity's queue to stop an attempt they may be running (claimed or dispatched). */
export function cancelActivityIntentOf(state: MutableStateSnapshot, activity: PendingActivityInfo, reason: string): CancelActivityIntent {
  const info = state.executionInfo;
  return {
    type: 'CancelActivity', namespace: info.namespace, workflowId: info.workflowId, runId: info.runId,
    taskQueue: activity.taskQueue, activityId: activity.activityId, scheduledEventId: activity.scheduledEventId,
    attempt: activity.attempt, reason,
  };
}

/** The pending activity scheduled by event `scheduledEventId`, if any. */
export function findActivity(state: MutableStateSnapshot, scheduledEventId: number): PendingActivityInfo | undefined {
  return state.pendingActivities.find((a) => a.scheduledEventId === scheduledEventId);
}

/** True while the activity's current attempt waits for its retry backoff (not sent yet). */
export function awaitingBackoff(state: MutableStateSnapshot, activity: PendingActivityInfo): boolean {
  return state.activitiesAwaitingBackoff.includes(activity.scheduledEventId);
}

/**
 * True when a worker may be running the activity's current attempt: it was claimed, or it was
 * dispatched (not waiting for a retry's backoff) and its worker has not claimed it yet — workers
 * claim an attempt only once it has run for a moment (`sdk/worker/deferred-claim.ts`).
 */
export function mayBeRunning(state: MutableStateSnapshot, activity: PendingActivityInfo): boolean {
  return activity.startedTime !== null || !awaitingBackoff(state, activity);
}

/** The deadline of `activity`'s unclaimed cancellation, requested at `now`, after `graceMs` (`HistoryConfig.unclaimedActivityCancelGraceMs`). */
export function unclaimedCancelDeadline(activity: PendingActivityInfo, now: number, graceMs: number): ActivityCancelDeadline {
  return { scheduledEventId: activity.scheduledEventId, deadline: now + graceMs };
}

/** Forgets the unclaimed-cancel deadline of activity `scheduledEventId`, if it has one. */
export function dropCancelDeadline(state: MutableStateSnapshot, scheduledEventId: number): void {
  if (state.activityCancelDeadlines.length === 0) return;
  state.activityCancelDeadlines = state.activityCancelDeadlines.filter((d) => d.scheduledEventId !== scheduledEventId);
}
