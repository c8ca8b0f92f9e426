/**
 * The deadlines armed in a run's state, and firing a due one. The processor's timer index is
 * derived from {@link timersOf}, so any state change removes stale deadlines by itself; and
 * {@link applyTimer} re-checks a due ref against the state, so a stale one (activity finished,
 * heartbeat moved, attempt changed, workflow task completed) does nothing.
 * @module
 */
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { openContext, type Ctx } from './context.js';
import { finishWithinLimits } from './history-limits.js';
import { activityTaskIntentOf, awaitingBackoff, findActivity } from './activity-tasks.js';
import { cancelUnclaimedActivity, timeOutActivity } from './activity-lifecycle.js';
import { expireRun } from './retention.js';
import type { TimerKind, TimerRef } from './timer-ref.js';
import type { Transition } from './transition.js';
import { fireTimer } from './user-timers.js';
import { timeOutUnclaimedWorkflowTask, timeOutWorkflowTask } from './workflow-task-attempts.js';
import { timeOutWorkflow } from './workflow-retry.js';
import { awaitingStartDelay, dispatchWorkflowTask, scheduleWorkflowTask, workflowTaskScheduleToStartMs } from './workflow-task-schedule.js';

/** An armed deadline and the id of what it belongs to (activity scheduled id, timer started id, workflow task scheduled id). */
interface Armed {
  ref: TimerRef;
  key: number;
}

function activityDeadlines(state: MutableStateSnapshot, runId: string): Armed[] {
  const armed: Armed[] = [];
  for (const a of state.pendingActivities) {
    const identity = `${runId}:activity:${a.scheduledEventId}:${a.attempt}`;
    const add = (kind: TimerKind, fireTime: number) => armed.push({ ref: { kind, fireTime, identity }, key: a.scheduledEventId });
    if (a.retryDeadline !== null) add('ScheduleToClose', a.retryDeadline);
    if (awaitingBackoff(state, a)) {
      add('ActivityRetry', a.currentAttemptScheduledTime);
    } else if (a.startedTime === null) {
      if (a.scheduleToStartTimeoutMs !== null) add('ScheduleToStart', a.currentAttemptScheduledTime + a.scheduleToStartTimeoutMs);
      const cancel = state.activityCancelDeadlines.find((d) => d.scheduledEventId === a.scheduledEventId);
      if (cancel) add('UnclaimedActivityCancel', cancel.deadline);
    } else {
      if (a.startToCloseTimeoutMs !== null) add('StartToClose', a.startedTime + a.startToCloseTimeoutMs);
      if (a.heartbeatTimeoutMs !== null) add('Heartbeat', (a.lastHeartbeatTime ?? a.startedTime) + a.heartbeatTimeoutMs);
    }
  }
  return armed;
}

function runDeadlines(state: MutableStateSnapshot, runId: string, config: HistoryConfig): Armed[] {
  const info = state.executionInfo;
  const armed: Armed[] = [];
  const task = state.pendingWorkflowTask;
  if (task) {
    const identity = `${runId}:workflow-task:${task.scheduledEventId}:${task.attempt}`;
    if (!state.workflowTaskDispatched) armed.push({ ref: { kind: 'WorkflowTaskRetry', fireTime: task.scheduledTime, identity }, key: 0 });
    else if (task.startedTime !== null) {
      armed.push({ ref: { kind: 'WorkflowTaskTimeout', fireTime: task.startedTime + task.startToCloseTimeoutMs, identity }, key: 0 });
    } else {
      armed.push({ ref: { kind: 'WorkflowTaskScheduleToStart', fireTime: task.scheduledTime + workflowTaskScheduleToStartMs(config, task.attempt), identity }, key: 0 });
    }
  } else if (awaitingStartDelay(state)) {
    armed.push({ ref: { kind: 'WorkflowStartDelay', fireTime: info.executionTime, identity: runId }, key: 0 });
  }
  if (info.workflowRunExpirationTime !== null) armed.push({ ref: { kind: 'RunTimeout', fireTime: info.workflowRunExpirationTime, identity: runId }, key: 0 });
  if (info.workflowExecutionExpirationTime !== null) {
    armed.push({ ref: { kind: 'ExecutionTimeout', fireTime: info.workflowExecutionExpirationTime, identity: runId }, key: 0 });
  }
  return armed;
}

function armedDeadlines(state: MutableStateSnapshot, config: HistoryConfig): Armed[] {
  if (state.executionInfo.status !== 'Running') return [];
  const runId = state.executionInfo.runId;
  const timers = state.pendingTimers.map((t): Armed => ({
    ref: { kind: 'UserTimer', fireTime: t.expiryTime, identity: `${runId}:timer:${t.startedEventId}` }, key: t.startedEventId,
  }));
  return [...runDeadlines(state, runId, config), ...activityDeadlines(state, runId), ...timers];
}

/**
 * Every deadline currently armed in the state (none for a closed run). `config` is the one
 * {@link applyTimer} gets: the workflow-task schedule-to-start deadline depends on it.
 */
export function timersOf(state: MutableStateSnapshot, config: HistoryConfig): TimerRef[] {
  return armedDeadlines(state, config).map((a) => a.ref);
}

function fireActivityRetry(ctx: Ctx, key: number): void {
  const activity = findActivity(ctx.state, key);
  if (!activity) return;
  ctx.state.activitiesAwaitingBackoff = ctx.state.activitiesAwaitingBackoff.filter((id) => id !== key);
  ctx.tasks.push(activityTaskIntentOf(ctx.state, activity));
}

const onActivity = (type: 'ScheduleToStart' | 'StartToClose' | 'ScheduleToClose' | 'Heartbeat') => (ctx: Ctx, key: number) => {
  const activity = findActivity(ctx.state, key);
  if (activity) timeOutActivity(ctx, activity, type);
};

const handlers: { [K in TimerKind]: (ctx: Ctx, key: number) => void } = {
  UserTimer: (ctx, key) => {
    const timer = ctx.state.pendingTimers.find((t) => t.startedEventId === key);
    if (timer) fireTimer(ctx, timer);
  },
  ActivityRetry: fireActivityRetry,
  ScheduleToStart: onActivity('ScheduleToStart'),
  StartToClose: onActivity('StartToClose'),
  ScheduleToClose: onActivity('ScheduleToClose'),
  Heartbeat: onActivity('Heartbeat'),
  UnclaimedActivityCancel: cancelUnclaimedActivity,
  WorkflowTaskTimeout: (ctx) => {
    if (ctx.state.pendingWorkflowTask) timeOutWorkflowTask(ctx, ctx.state.pendingWorkflowTask);
  },
  WorkflowTaskScheduleToStart: (ctx) => {
    if (ctx.state.pendingWorkflowTask) timeOutUnclaimedWorkflowTask(ctx, ctx.state.pendingWorkflowTask);
  },
  WorkflowTaskRetry: (ctx) => dispatchWorkflowTask(ctx),
  WorkflowStartDelay: (ctx) => scheduleWorkflowTask(ctx, 1),
  // Never armed in a running state: retention is fired by `expireRun` before this table is used.
  Retention: () => undefined,
  RunTimeout: (ctx) => timeOutWorkflow(ctx, false),
  ExecutionTimeout: (ctx) => timeOutWorkflow(ctx, true),
};

const unchanged = (): Transition => ({
  state: null, changed: false, events: [], tasks: [], commands: [], replies: [], visibility: null, closedRun: null, rejection: null,
});

/**
 * Fires a due deadline. Nothing happens (`changed: false`) if it is not due yet (`now` before its
 * fire time: timers never fire early) or no longer armed in this state (stale).
 */
export function applyTimer(state: MutableStateSnapshot, timer: TimerRef, now: number, config: HistoryConfig = defaultHistoryConfig): Transition {
  if (timer.fireTime > now) return unchanged();
  if (timer.kind === 'Retention') return expireRun(state, timer, now) ?? unchanged();
  const armed = armedDeadlines(state, config).find(
    (a) => a.ref.kind === timer.kind && a.ref.identity === timer.identity && a.ref.fireTime === timer.fireTime,
  );
  if (!armed) return unchanged();
  const ctx = openContext(state, now, config, null);
  handlers[armed.ref.kind](ctx, armed.key);
  return finishWithinLimits(ctx, state);
}
