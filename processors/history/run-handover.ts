/**
 * The engine's own continue-as-new: a run closed by its retry policy (a failure or a run timeout
 * with attempts left) or by its cron schedule hands over to a new run of the same workflow id, in
 * the same transition, exactly as `continue-as-new.ts` does for the workflow's own command. The
 * new run starts with the old run's start input and header (kept in the snapshot since v4), the
 * same type, task queue, timeouts, retry policy and cron schedule, after `backoffMs`.
 *
 * As in Temporal, the old run's closing event is `WorkflowExecutionContinuedAsNew` with initiator
 * `Retry` (and the failure) or `CronSchedule`, and the new run's `WorkflowExecutionStarted` names
 * the old run, the initiator, the failure (`continuedFailure`) and the chain's last completion
 * result. Result waiters that follow runs move to the new run.
 * @module
 */
import type { StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import type { ContinueAsNewInitiator } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Payload } from '../../topics/payload/payload.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { closeRun } from './close-run.js';
import { continuedRunState } from './continue-as-new.js';
import { continuedRunIdOf } from './deterministic-seed.js';
import { startRun } from './new-run.js';
import { cloneData } from './plain-data.js';
import { visibilityRowOf } from './visibility.js';

/** Why and how a run hands over to a new run. */
export interface Handover {
  initiator: Extract<ContinueAsNewInitiator, 'Retry' | 'CronSchedule'>;
  /** The failure that closed the run (a retry, or a failed cron run); null for a completed cron run. */
  failure: Failure | null;
  /** The result of a completed cron run; the chain's previous result is kept otherwise. */
  result: Payload | null;
  /** Wait before the new run's first workflow task. */
  backoffMs: number;
  /** Attempt of the new run: the old one's + 1 for a retry, 1 for a cron run. */
  attempt: number;
  /** The WorkflowTaskCompleted whose Fail or Complete command closed the run; 0 when a timeout closed it. */
  completedEventId: number;
}

/** The start request of the new run: the old run's own start again. */
function repeatedStart(old: MutableStateSnapshot, runId: string, backoffMs: number): StartWorkflowExecutionRequest {
  const info = old.executionInfo;
  return {
    runId, workflowType: info.workflowType, taskQueue: info.taskQueue, input: old.startInput, identity: 'logbook-history',
    workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: 'AllowDuplicate',
    workflowExecutionTimeoutMs: info.workflowExecutionTimeoutMs, workflowRunTimeoutMs: info.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: info.workflowTaskTimeoutMs, retryPolicy: info.retryPolicy, cronSchedule: info.cronSchedule,
    workflowStartDelayMs: backoffMs > 0 ? backoffMs : null, memo: old.memo, searchAttributes: old.searchAttributes,
    // A child's next attempt stays the parent's child: the parent is told when the chain ends.
    header: old.startHeader, parent: info.parent,
  };
}

/**
 * A cron run's own execution and run deadlines, from its execution time (cron chains run for ever;
 * retries and continue-as-new keep the deadline of the run they continue).
 */
function ownDeadlines(state: MutableStateSnapshot): void {
  const info = state.executionInfo;
  const { executionTime, workflowExecutionTimeoutMs: execution, workflowRunTimeoutMs: run } = info;
  info.workflowExecutionExpirationTime = execution === null ? null : executionTime + execution;
  info.workflowRunExpirationTime = run === null ? null : executionTime + run;
}

/**
 * Closes the running run `ctx.state` (its buffered events already appended, if any) with
 * WorkflowExecutionContinuedAsNew and replaces `ctx.state` with the new run, whose first events
 * follow in `ctx.events`. The old run's final state and row go to `ctx.closedRun`.
 */
export function handOverToNewRun(ctx: Ctx, handover: Handover): void {
  const old = ctx.state;
  const info = old.executionInfo;
  const newRunId = continuedRunIdOf(info.runId, info.nextEventId);
  const start = repeatedStart(old, newRunId, handover.backoffMs);
  const lastCompletionResult = handover.result ?? old.lastCompletionResult;
  appendEvent(ctx, {
    type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: newRunId, workflowType: start.workflowType,
    taskQueue: start.taskQueue, input: start.input, workflowRunTimeoutMs: start.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: info.workflowTaskTimeoutMs, workflowTaskCompletedEventId: handover.completedEventId,
    backoffStartIntervalMs: start.workflowStartDelayMs, initiator: handover.initiator, failure: handover.failure,
    lastCompletionResult, header: start.header, memo: start.memo, searchAttributes: start.searchAttributes,
  });
  const followers = old.resultWaiters.filter((w) => w.followRuns);
  old.resultWaiters = old.resultWaiters.filter((w) => !w.followRuns);
  closeRun(ctx, { status: 'ContinuedAsNew', result: handover.result, failure: handover.failure });
  ctx.closedRun = { state: cloneData(old), visibility: visibilityRowOf(old) };
  const state = continuedRunState(ctx, old, start, followers);
  if (handover.initiator === 'CronSchedule') ownDeadlines(state);
  state.executionInfo.attempt = handover.attempt;
  state.lastCompletionResult = lastCompletionResult;
  state.lastFailure = handover.failure;
  ctx.state = state;
  ctx.activityStartedIds.clear();
  startRun(ctx, start, null, { runId: info.runId, initiator: handover.initiator });
}
