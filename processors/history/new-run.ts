/**
 * A new run: its initial state and its first events (WorkflowExecutionStarted, the signal of a
 * signal-with-start, the first WorkflowTaskScheduled unless the start is delayed).
 * @module
 */
import type { Command, StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { ContinueAsNewInitiator } from '../../topics/schemas/common/v1-enums.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { startRequestProblem } from '../../topics/validation/index.js';
import type { HistoryConfig } from './config.js';
import { appendEvent, type Ctx } from './context.js';
import { prngSeedOf } from './deterministic-seed.js';
import { rememberRequestId, type SignalInput } from './client-requests.js';
import { retryPolicyProblem } from './retry-policy.js';
import { cronScheduleProblem } from './cron-runs.js';
import { scheduleWorkflowTask } from './workflow-task-schedule.js';

const positive = (ms: number | null): number | null => (ms !== null && ms > 0 ? ms : null);

/**
 * Why a start cannot be accepted as sent, or null. The engine trusts nothing it reads from a
 * topic: the start's target and names are checked against the rules every client applies
 * (`topics/validation`), so a namespace or task queue that cannot be part of a topic name never
 * becomes a run whose tasks could not be dispatched.
 */
export function startProblem(target: Pick<Command, 'namespace' | 'workflowId'>, start: StartWorkflowExecutionRequest): { code: 'InvalidArgument'; message: string } | null {
  if (!start.runId || !start.workflowType || !start.taskQueue) {
    return { code: 'InvalidArgument', message: 'a start needs runId, workflowType and taskQueue' };
  }
  const timeouts = [start.workflowExecutionTimeoutMs, start.workflowRunTimeoutMs, start.workflowTaskTimeoutMs, start.workflowStartDelayMs];
  if (timeouts.some((ms) => ms !== null && ms < 0)) return { code: 'InvalidArgument', message: 'timeouts and the start delay must not be negative' };
  const invalid = startRequestProblem(target.namespace, target.workflowId, start);
  if (invalid) return { code: 'InvalidArgument', message: invalid };
  const retry = retryPolicyProblem(start.retryPolicy);
  if (retry) return { code: 'InvalidArgument', message: `retryPolicy: ${retry}` };
  const cron = cronScheduleProblem(start);
  if (cron) return { code: 'InvalidArgument', message: `cronSchedule: ${cron}` };
  return null;
}

/**
 * The state of a run that has no events yet. The run timeout defaults to the execution timeout and
 * may not exceed it (Temporal); both count from the execution time (start + start delay).
 */
export function newRunState(command: Pick<Command, 'namespace' | 'workflowId' | 'requestId'>, start: StartWorkflowExecutionRequest, now: number, config: HistoryConfig): MutableStateSnapshot {
  const execution = positive(start.workflowExecutionTimeoutMs);
  const runTimeout = positive(start.workflowRunTimeoutMs) ?? execution;
  const run = execution !== null && runTimeout !== null ? Math.min(runTimeout, execution) : runTimeout;
  const executionTime = now + (positive(start.workflowStartDelayMs) ?? 0);
  return {
    executionInfo: {
      namespace: command.namespace, workflowId: command.workflowId, runId: start.runId, workflowType: start.workflowType,
      taskQueue: start.taskQueue, status: 'Running', startTime: now, executionTime, closeTime: null,
      workflowExecutionTimeoutMs: execution, workflowRunTimeoutMs: run,
      workflowTaskTimeoutMs: positive(start.workflowTaskTimeoutMs) ?? config.defaultWorkflowTaskTimeoutMs,
      workflowExecutionExpirationTime: execution === null ? null : executionTime + execution,
      workflowRunExpirationTime: run === null ? null : executionTime + run,
      lastEventId: 0, nextEventId: 1, lastEventTime: now, lastWorkflowTaskCompletedEventId: null,
      firstExecutionRunId: start.runId, parent: start.parent, attempt: 1, retryPolicy: start.retryPolicy, cronSchedule: start.cronSchedule || null,
      cancelRequested: false, historySizeBytes: 0,
    },
    pendingActivities: [], pendingTimers: [], pendingWorkflowTask: null, bufferedEvents: [], requestIds: [],
    pendingChildren: [], pendingSignalExternals: [], pendingCancelExternals: [], pendingUpdates: [], resultWaiters: [],
    searchAttributes: { ...start.searchAttributes }, memo: { ...start.memo }, startRequestId: command.requestId,
    workflowTaskDispatched: true, activitiesAwaitingBackoff: [], closeResult: null, closeFailure: null,
    signalCount: 0, historyLimitWarned: false,
    startInput: start.input, startHeader: { ...start.header }, lastCompletionResult: null, lastFailure: null,
    workflowTaskWindowStartTime: 0, workflowTaskWindowCount: 0, activityCancelDeadlines: [],
  };
}

/** The run a new run continues (continue-as-new), recorded in its WorkflowExecutionStarted. */
export interface ContinuedFrom {
  runId: string;
  initiator: ContinueAsNewInitiator;
}

/**
 * Writes the new run's first events (ctx.state must be {@link newRunState}) and answers
 * StartAccepted — unless the run continues another (`continued`), which nobody asked to start.
 */
export function startRun(ctx: Ctx, start: StartWorkflowExecutionRequest, signal: SignalInput | null, continued: ContinuedFrom | null = null): void {
  const info = ctx.state.executionInfo;
  const requestId = ctx.command?.requestId ?? '';
  appendEvent(ctx, {
    type: 'WorkflowExecutionStarted', workflowType: info.workflowType, taskQueue: info.taskQueue, input: start.input,
    workflowExecutionTimeoutMs: info.workflowExecutionTimeoutMs, workflowRunTimeoutMs: info.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: info.workflowTaskTimeoutMs, parent: info.parent, continuedExecutionRunId: continued?.runId ?? null,
    initiator: continued?.initiator ?? null, continuedFailure: ctx.state.lastFailure, lastCompletionResult: ctx.state.lastCompletionResult,
    originalExecutionRunId: info.runId,
    firstExecutionRunId: info.firstExecutionRunId, identity: start.identity, requestId, retryPolicy: info.retryPolicy,
    attempt: info.attempt, workflowExecutionExpirationTime: info.workflowExecutionExpirationTime, cronSchedule: info.cronSchedule,
    firstWorkflowTaskBackoffMs: positive(start.workflowStartDelayMs), memo: start.memo,
    searchAttributes: start.searchAttributes, header: start.header, prngSeed: prngSeedOf(info.runId),
  });
  if (signal) {
    rememberRequestId(ctx, requestId);
    ctx.state.signalCount++;
    appendEvent(ctx, { type: 'WorkflowExecutionSignaled', ...signal, requestId, externalInitiator: null });
  }
  if (info.executionTime <= ctx.now) scheduleWorkflowTask(ctx, 1);
  const replyTo = ctx.command?.replyTo;
  if (replyTo && !continued) {
    ctx.replies.push({ requestId: replyTo.requestId, kind: 'StartAccepted', runId: info.runId, payload: null, failure: null, executionStatus: null });
  }
  ctx.visibilityChanged = true;
}
