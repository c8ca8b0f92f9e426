/**
 * Workflow retry policies (Temporal's semantics): a run that fails, or reaches its run timeout,
 * while its policy allows another attempt hands over to a new run (`run-handover.ts`, initiator
 * `Retry`) after initial × coefficient^(attempt − 1), capped at the maximum interval. The chain
 * stops at `maximumAttempts`, on a non-retryable failure (`nonRetryable`, or its code listed in
 * `nonRetryableErrorTypes`), once cancellation was requested, or when the next attempt would not
 * start before the execution timeout. Terminate and cancel never retry; nor does the execution
 * timeout, which bounds the whole chain. A cron run that is not retried goes on to its next cron
 * run (`cron-runs.ts`).
 * @module
 */
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';
import { closeRun, timeOutRun } from './close-run.js';
import { flushBuffered } from './delivery.js';
import { decideRetry, normalizeRetryPolicy, type RetryDecision } from './retry-policy.js';
import { handOverToNewRun } from './run-handover.js';
import { startNextCronRun } from './cron-runs.js';

/** The failure a run timeout stands for when the retry policy decides (retryable, unlike the closing failure). */
const runTimeoutFailure: Failure = {
  message: 'workflow run timeout', source: 'Logbook', stackTrace: '', code: 'TimedOut', nonRetryable: false, details: null, cause: null,
};

/** Whether the run may be retried after `failure`; null when it has no retry policy. */
export function workflowRetryDecision(state: MutableStateSnapshot, failure: Failure, now: number): RetryDecision | null {
  const info = state.executionInfo;
  if (info.retryPolicy === null) return null;
  return decideRetry({
    policy: normalizeRetryPolicy(info.retryPolicy), attempt: info.attempt, failure, now,
    deadline: info.workflowExecutionExpirationTime, cancelRequested: info.cancelRequested,
  });
}

/** FailWorkflowExecution: a retry when the policy allows one, else the next cron run if any, else the run fails. */
export function failWorkflow(ctx: Ctx, failure: Failure, completedEventId: number): void {
  const decision = workflowRetryDecision(ctx.state, failure, ctx.now);
  if (decision?.retry) {
    const attempt = ctx.state.executionInfo.attempt + 1;
    handOverToNewRun(ctx, { initiator: 'Retry', failure, result: null, backoffMs: decision.backoffMs, attempt, completedEventId });
    return;
  }
  if (startNextCronRun(ctx, { result: null, failure, completedEventId })) return;
  const retryState = decision?.retryState ?? 'RetryPolicyNotSet';
  appendEvent(ctx, { type: 'WorkflowExecutionFailed', failure, retryState, workflowTaskCompletedEventId: completedEventId, newExecutionRunId: null });
  closeRun(ctx, { status: 'Failed', result: null, failure, retryState });
}

/**
 * A run or execution timeout fired: a retry when the policy allows one (run timeout only), else
 * the next cron run if any, else the run times out.
 */
export function timeOutWorkflow(ctx: Ctx, executionTimeout: boolean): void {
  const info = ctx.state.executionInfo;
  const decision: RetryDecision | null = executionTimeout ? { retry: false, retryState: 'Timeout' } : workflowRetryDecision(ctx.state, runTimeoutFailure, ctx.now);
  if (!decision?.retry && !info.cronSchedule) {
    timeOutRun(ctx, executionTimeout, decision?.retryState ?? 'RetryPolicyNotSet');
    return;
  }
  // As for any close from outside: the in-flight workflow task writes nothing, buffered events are kept.
  ctx.state.pendingWorkflowTask = null;
  flushBuffered(ctx);
  // 0: the hand-over answers no workflow task (replay tells it from one that answers a Fail or Complete command).
  const completedEventId = 0;
  const failure = executionTimeout ? { ...runTimeoutFailure, message: 'workflow execution timeout' } : runTimeoutFailure;
  if (decision?.retry) {
    handOverToNewRun(ctx, { initiator: 'Retry', failure, result: null, backoffMs: decision.backoffMs, attempt: info.attempt + 1, completedEventId });
  } else {
    startNextCronRun(ctx, { result: null, failure, completedEventId });
  }
}
