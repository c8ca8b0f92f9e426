/**
 * A workflow-task attempt from claim to its end: claimed by a worker (no event yet), then
 * completed (see `workflow-task-completion.ts`), failed or timed out. Only attempt 1 writes its
 * Started and Failed / TimedOut events; later attempts are transient and write nothing when they
 * fail. Either way the buffered events are appended and the next attempt is scheduled.
 * @module
 */
import type { CommandBodyOf, TaskAttemptRef } from '../../topics/schemas/command/index.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { PendingWorkflowTaskInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, reject, type Ctx } from './context.js';
import { answerClaim, claimIdOf, mayClaim } from './claims.js';
import { flushBuffered } from './delivery.js';
import { RejectionCode } from './transition.js';
import { limitsFor } from './config.js';
import { startedFacts } from './history-limits.js';
import { failTaskAndTerminate } from './payload-limits.js';
import { scheduleWorkflowTask, transientScheduledAttributes } from './workflow-task-schedule.js';

/** How an attempt ended without completing (`Unclaimed`: its schedule-to-start timeout passed). */
export type AttemptFailure =
  | { kind: 'Failed'; cause: WorkflowTaskFailedCause; failure: Failure | null; identity: string }
  | { kind: 'TimedOut' }
  | { kind: 'Unclaimed' };

/** The pending workflow task if `ref` names its sent attempt; otherwise rejects with `code`. */
export function pendingAttempt(ctx: Ctx, ref: TaskAttemptRef & { type: string }, code: RejectionCode): PendingWorkflowTaskInfo | null {
  const state = ctx.state;
  const task = state.pendingWorkflowTask;
  if (task && task.scheduledEventId === ref.scheduledEventId && task.attempt === ref.attempt && state.workflowTaskDispatched) return task;
  const current = task ? `the pending task is ${task.scheduledEventId} attempt ${task.attempt}` : 'no workflow task is pending';
  reject(ctx, code, `${ref.type} for workflow task ${ref.scheduledEventId} attempt ${ref.attempt} ignored: ${current}`);
  return null;
}

/**
 * WorkflowTaskStarted (the claim): recorded in state and arms the start-to-close timeout. One
 * attempt has one holder (`claims.ts`): the holder's repeated claim changes nothing, another is refused.
 */
export function workflowTaskStarted(ctx: Ctx, body: CommandBodyOf<'WorkflowTaskStarted'>): void {
  const task = pendingAttempt(ctx, body, RejectionCode.StaleWorkflowTaskClaim);
  if (!task) return;
  const what = `workflow task ${task.scheduledEventId} attempt ${task.attempt}`;
  if (!mayClaim(ctx, task, RejectionCode.StaleWorkflowTaskClaim, what)) return;
  task.startedTime = ctx.now;
  task.startedIdentity = body.identity;
  task.startedRequestId = claimIdOf(ctx);
  task.startedEventId = task.scheduledEventId + 1;
  answerClaim(ctx);
}

/** Writes the attempt's WorkflowTaskScheduled if it has none yet: transient retries (attempt ≥ 2) and speculative update tasks. */
function writeAttemptScheduled(ctx: Ctx, task: PendingWorkflowTaskInfo): void {
  if (task.scheduledEventId <= ctx.state.executionInfo.lastEventId) return;
  const scheduled = appendEvent(ctx, transientScheduledAttributes(task), task.scheduledTime);
  if (scheduled.eventId !== task.scheduledEventId) {
    throw new Error(`transient workflow task expected event id ${task.scheduledEventId}, got ${scheduled.eventId}`);
  }
}

/**
 * Writes the attempt's WorkflowTaskStarted (at the claim time, or now if it was never claimed),
 * preceded by its WorkflowTaskScheduled for a transient attempt. Returns the Started event id.
 */
export function writeAttemptStart(ctx: Ctx, task: PendingWorkflowTaskInfo, identity: string): number {
  writeAttemptScheduled(ctx, task);
  // The same facts the task carried to the worker (workflowTaskIntentOf), so replay sees them too.
  const info = ctx.state.executionInfo;
  const facts = startedFacts(limitsFor(ctx.config, info.namespace), info.nextEventId, info.historySizeBytes);
  const started = appendEvent(ctx, {
    type: 'WorkflowTaskStarted', scheduledEventId: task.scheduledEventId, identity: task.startedIdentity ?? identity,
    requestId: task.startedRequestId ?? ctx.command?.requestId ?? '', ...facts,
  }, task.startedTime ?? ctx.now);
  return started.eventId;
}

/** The events attempt 1 writes when it ends without a completion (an unclaimed one was never started). */
function writeAttemptEnd(ctx: Ctx, task: PendingWorkflowTaskInfo, end: AttemptFailure): void {
  if (end.kind === 'Unclaimed') {
    writeAttemptScheduled(ctx, task);
    appendEvent(ctx, { type: 'WorkflowTaskTimedOut', scheduledEventId: task.scheduledEventId, startedEventId: null, timeoutType: 'ScheduleToStart' });
    return;
  }
  const startedEventId = writeAttemptStart(ctx, task, end.kind === 'Failed' ? end.identity : '');
  appendEvent(ctx, end.kind === 'Failed'
    ? { type: 'WorkflowTaskFailed', scheduledEventId: task.scheduledEventId, startedEventId, cause: end.cause, failure: end.failure, identity: end.identity }
    : { type: 'WorkflowTaskTimedOut', scheduledEventId: task.scheduledEventId, startedEventId, timeoutType: 'StartToClose' });
}

/**
 * Ends the attempt without a completion: events for attempt 1 only, then the buffered events, then
 * attempt `nextAttempt` (1 = at once, ≥ 2 = transient, after a backoff or `delayMs`).
 */
export function endAttempt(ctx: Ctx, task: PendingWorkflowTaskInfo, end: AttemptFailure, nextAttempt: number, delayMs?: number): void {
  if (task.attempt === 1) writeAttemptEnd(ctx, task, end);
  ctx.state.pendingWorkflowTask = null;
  ctx.state.workflowTaskDispatched = true;
  flushBuffered(ctx);
  scheduleWorkflowTask(ctx, nextAttempt, delayMs);
}

/**
 * WorkflowTaskFailed from the worker (e.g. non-determinism): the task is retried — unless its
 * completion was too large to send (`PayloadTooLarge`), which every retry would repeat: then the
 * run is terminated, as for a payload over the limit (see `payload-limits.ts`).
 */
export function workflowTaskFailed(ctx: Ctx, body: CommandBodyOf<'WorkflowTaskFailed'>): void {
  const task = pendingAttempt(ctx, body, RejectionCode.StaleWorkflowTaskCompletion);
  if (!task) return;
  if (body.cause === 'PayloadTooLarge') {
    failTaskAndTerminate(ctx, task, { cause: body.cause, message: body.failure?.message ?? 'the workflow task completion is too large' }, body.identity);
    return;
  }
  endAttempt(ctx, task, { kind: 'Failed', cause: body.cause, failure: body.failure, identity: body.identity }, task.attempt + 1);
}

/** The claimed attempt ran past its start-to-close timeout: the task is retried. */
export function timeOutWorkflowTask(ctx: Ctx, task: PendingWorkflowTaskInfo): void {
  endAttempt(ctx, task, { kind: 'TimedOut' }, task.attempt + 1);
}

/**
 * The dispatched attempt waited unclaimed past its schedule-to-start timeout (its record may be
 * lost): the next attempt is written to the queue at once, with no backoff — the timeout already
 * waited, and grows per attempt. A late claim or result of the old attempt is stale.
 */
export function timeOutUnclaimedWorkflowTask(ctx: Ctx, task: PendingWorkflowTaskInfo): void {
  endAttempt(ctx, task, { kind: 'Unclaimed' }, task.attempt + 1, 0);
}
