/**
 * ContinueAsNewWorkflowExecution: the run closes with WorkflowExecutionContinuedAsNew and a new run
 * of the same workflow id starts in the same transition (same shard, same transaction), with a
 * fresh history, the carried input and the same or overridden type, task queue and timeouts.
 *
 * The new run id is derived from the old run id and the closing event id (no randomness). The
 * chain shares its first run id and its execution deadline; callers waiting for the result with
 * `followRuns` move to the new run, the others are answered with status ContinuedAsNew.
 * @module
 */
import type { StartWorkflowExecutionRequest, WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { closeRun } from './close-run.js';
import { continuedRunIdOf } from './deterministic-seed.js';
import { newRunState, startRun } from './new-run.js';
import { cloneData } from './plain-data.js';
import { visibilityRowOf } from './visibility.js';

/** The ContinueAsNewWorkflowExecution command's attributes. */
export type ContinueAsNewAttributes = WorkflowCommandAttributesMap['ContinueAsNewWorkflowExecution'];

const positive = (ms: number | null): number | null => (ms !== null && ms > 0 ? ms : null);

/** The start request the new run is built from: the command's values, else the old run's. */
function continuedStart(old: MutableStateSnapshot, command: ContinueAsNewAttributes, runId: string, identity: string): StartWorkflowExecutionRequest {
  const info = old.executionInfo;
  return {
    runId, workflowType: command.workflowType, taskQueue: command.taskQueue || info.taskQueue, input: command.input, identity,
    workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: 'AllowDuplicate',
    workflowExecutionTimeoutMs: info.workflowExecutionTimeoutMs,
    workflowRunTimeoutMs: positive(command.workflowRunTimeoutMs) ?? info.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: positive(command.workflowTaskTimeoutMs) ?? info.workflowTaskTimeoutMs,
    retryPolicy: command.retryPolicy ?? info.retryPolicy, cronSchedule: null,
    workflowStartDelayMs: positive(command.backoffStartIntervalMs),
    memo: command.memo ?? old.memo, searchAttributes: command.searchAttributes ?? old.searchAttributes,
    // A child's next run stays the parent's child: the parent is told when the chain ends.
    header: command.header, parent: info.parent,
  };
}

/**
 * The new run's state: a fresh run, except what belongs to the chain — its first run id, the
 * execution deadline (counted from the first run, so a chain cannot outlive it), the start request
 * id (a retried start still finds the chain), the callers following the chain's result and the
 * workflow-task rate window. Also used by workflow retries and cron runs (`run-handover.ts`).
 */
export function continuedRunState(ctx: Ctx, old: MutableStateSnapshot, start: StartWorkflowExecutionRequest, followers: MutableStateSnapshot['resultWaiters']): MutableStateSnapshot {
  const origin = { namespace: old.executionInfo.namespace, workflowId: old.executionInfo.workflowId, requestId: old.startRequestId };
  const state = newRunState(origin, start, ctx.now, ctx.config);
  const info = state.executionInfo;
  const chainDeadline = old.executionInfo.workflowExecutionExpirationTime;
  info.firstExecutionRunId = old.executionInfo.firstExecutionRunId;
  info.workflowExecutionExpirationTime = chainDeadline;
  if (chainDeadline !== null) {
    info.workflowRunExpirationTime = info.workflowRunExpirationTime === null ? chainDeadline : Math.min(info.workflowRunExpirationTime, chainDeadline);
  }
  state.startRequestId = old.startRequestId;
  state.resultWaiters = followers;
  // The task rate limit is per workflow: a hot workflow does not escape it by starting a new run.
  state.workflowTaskWindowStartTime = old.workflowTaskWindowStartTime;
  state.workflowTaskWindowCount = old.workflowTaskWindowCount;
  return state;
}

/**
 * Applies ContinueAsNewWorkflowExecution (validated, and the last command of its completion):
 * closes the run and replaces `ctx.state` with the new run, whose first events follow the old
 * run's in `ctx.events`. The old run's final state and visibility row go to `ctx.closedRun`.
 */
export function continueAsNew(ctx: Ctx, command: ContinueAsNewAttributes, done: { completedEventId: number; identity: string }): void {
  const old = ctx.state;
  const info = old.executionInfo;
  const newRunId = continuedRunIdOf(info.runId, info.nextEventId);
  const start = continuedStart(old, command, newRunId, done.identity);
  appendEvent(ctx, {
    type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: newRunId, workflowType: start.workflowType,
    taskQueue: start.taskQueue, input: start.input, workflowRunTimeoutMs: start.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: start.workflowTaskTimeoutMs ?? info.workflowTaskTimeoutMs,
    workflowTaskCompletedEventId: done.completedEventId, backoffStartIntervalMs: start.workflowStartDelayMs,
    initiator: 'Workflow', failure: null, lastCompletionResult: null, header: start.header, memo: start.memo,
    searchAttributes: start.searchAttributes,
  });
  const followers = old.resultWaiters.filter((w) => w.followRuns);
  old.resultWaiters = old.resultWaiters.filter((w) => !w.followRuns);
  closeRun(ctx, { status: 'ContinuedAsNew', result: null, failure: null });
  ctx.closedRun = { state: cloneData(old), visibility: visibilityRowOf(old) };
  ctx.state = continuedRunState(ctx, old, start, followers);
  ctx.activityStartedIds.clear();
  startRun(ctx, start, null, { runId: info.runId, initiator: 'Workflow' });
}
