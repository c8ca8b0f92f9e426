/**
 * Scheduling and dispatching workflow tasks. At most one is in flight per run (scheduled, waiting
 * for its retry backoff, or claimed); while it is, new events are buffered (see `delivery.ts`).
 *
 * Attempt 1 writes `WorkflowTaskScheduled` at once. Attempts ≥ 2 are transient (Temporal): they
 * write nothing until they complete, wait for a backoff of initial × 2^(attempt − 2) capped at
 * `maxWorkflowTaskBackoffMs`, and keep the id their Scheduled event will get — `nextEventId`,
 * stable because nothing is appended while a task is in flight.
 * @module
 */
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { HistoryEventAttributesOf } from '../../topics/schemas/history-event/index.js';
import type { PendingWorkflowTaskInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { limitsFor, type HistoryConfig } from './config.js';
import { appendEvent, eventOf, type Ctx } from './context.js';
import { startedFacts } from './history-limits.js';
import { estimatedEventBytes } from './history-size.js';
import type { WorkflowTaskIntent } from './transition.js';
import { admitWorkflowTask } from './workflow-task-rate.js';
import { updateMessagesOf } from './updates.js';

/** Backoff before workflow-task attempt `attempt` (≥ 2). */
export function workflowTaskBackoffMs(config: HistoryConfig, attempt: number): number {
  const exponent = Math.max(0, attempt - 2);
  const backoff = config.workflowTaskRetryInitialIntervalMs * 2 ** exponent;
  return Number.isFinite(backoff) ? Math.min(backoff, config.maxWorkflowTaskBackoffMs) : config.maxWorkflowTaskBackoffMs;
}

/**
 * How long attempt `attempt` of a dispatched workflow task may wait unclaimed: the configured
 * schedule-to-start timeout doubled per attempt after the first, capped.
 */
export function workflowTaskScheduleToStartMs(config: HistoryConfig, attempt: number): number {
  const timeout = config.workflowTaskScheduleToStartTimeoutMs * 2 ** Math.max(0, attempt - 1);
  return Number.isFinite(timeout) ? Math.min(timeout, config.maxWorkflowTaskScheduleToStartTimeoutMs) : config.maxWorkflowTaskScheduleToStartTimeoutMs;
}

/**
 * The first event id a worker that ran the last completed workflow task has not seen: that task's
 * WorkflowTaskCompleted event (it saw everything up to its own Started), or 1 before any.
 */
export function fromEventIdOf(state: MutableStateSnapshot): number {
  return state.executionInfo.lastWorkflowTaskCompletedEventId ?? 1;
}

/** True when a workflow task is scheduled, waiting for its backoff, or claimed. */
export function workflowTaskInFlight(state: MutableStateSnapshot): boolean {
  return state.pendingWorkflowTask !== null;
}

/** True while a delayed start waits for its first workflow task (events are appended but wake nothing). */
export function awaitingStartDelay(state: MutableStateSnapshot): boolean {
  return state.pendingWorkflowTask === null && state.executionInfo.lastWorkflowTaskCompletedEventId === null;
}

/**
 * Schedules workflow-task `attempt`: at once for attempt 1; otherwise transient, sent after
 * `delayMs` (default: the retry backoff of the attempt).
 */
export function scheduleWorkflowTask(ctx: Ctx, attempt: number, delayMs = workflowTaskBackoffMs(ctx.config, attempt)): void {
  const state = ctx.state;
  const info = state.executionInfo;
  if (state.pendingWorkflowTask) throw new Error(`run ${info.runId} already has a workflow task in flight`);
  const base = {
    attempt, taskQueue: info.taskQueue, startToCloseTimeoutMs: info.workflowTaskTimeoutMs,
    startedEventId: null, startedTime: null, startedIdentity: null, startedRequestId: null,
  };
  if (attempt <= 1) {
    const scheduled = appendEvent(ctx, {
      type: 'WorkflowTaskScheduled', taskQueue: info.taskQueue, startToCloseTimeoutMs: info.workflowTaskTimeoutMs, attempt: 1,
    });
    state.pendingWorkflowTask = { ...base, attempt: 1, scheduledEventId: scheduled.eventId, scheduledTime: ctx.now };
    dispatchWorkflowTask(ctx);
    return;
  }
  state.pendingWorkflowTask = { ...base, scheduledEventId: info.nextEventId, scheduledTime: ctx.now + delayMs };
  state.workflowTaskDispatched = false;
  if (delayMs <= 0) dispatchWorkflowTask(ctx);
}

/** Marks the pending workflow task sent and emits its intent, unless the task rate limit defers it. */
export function dispatchWorkflowTask(ctx: Ctx): void {
  if (!admitWorkflowTask(ctx)) return;
  ctx.state.workflowTaskDispatched = true;
  ctx.tasks.push(workflowTaskIntentOf(ctx.state, ctx.config));
}

/** The WorkflowTaskScheduled a transient attempt (≥ 2) writes when it completes. */
export function transientScheduledAttributes(task: PendingWorkflowTaskInfo): HistoryEventAttributesOf<'WorkflowTaskScheduled'> {
  return { type: 'WorkflowTaskScheduled', taskQueue: task.taskQueue, startToCloseTimeoutMs: task.startToCloseTimeoutMs, attempt: task.attempt };
}

/**
 * The history size the task's WorkflowTaskStarted will record: the history so far, plus the
 * Scheduled event a transient attempt writes first (predicted from the event it will write).
 */
function sizeBeforeStarted(state: MutableStateSnapshot, task: PendingWorkflowTaskInfo): number {
  const info = state.executionInfo;
  if (task.scheduledEventId <= info.lastEventId) return info.historySizeBytes;
  return info.historySizeBytes + estimatedEventBytes(eventOf(info, task.scheduledEventId, task.scheduledTime, transientScheduledAttributes(task)));
}

/** The intent that sends the pending workflow task of `state`. */
export function workflowTaskIntentOf(state: MutableStateSnapshot, config: HistoryConfig): WorkflowTaskIntent {
  const info = state.executionInfo;
  const task = state.pendingWorkflowTask;
  if (!task) throw new Error(`run ${info.runId} has no workflow task to send`);
  const startedEventIdHint = task.scheduledEventId + 1;
  return {
    type: 'WorkflowTask', namespace: info.namespace, workflowId: info.workflowId, runId: info.runId,
    workflowType: info.workflowType, taskQueue: task.taskQueue, scheduledEventId: task.scheduledEventId,
    attempt: task.attempt, scheduledTime: task.scheduledTime, startToCloseTimeoutMs: task.startToCloseTimeoutMs,
    startedEventIdHint, fromEventId: fromEventIdOf(state), lastEventId: info.lastEventId,
    ...startedFacts(limitsFor(config, info.namespace), startedEventIdHint, sizeBeforeStarted(state, task)),
    messages: updateMessagesOf(state),
  };
}
