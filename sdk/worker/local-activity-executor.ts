/**
 * Runs local activities for the workflow worker, in its process, during the workflow task that
 * asked for them (concurrently when one activation asks for several).
 *
 * Attempts and retries follow the activity's options and retry policy (Temporal's defaults: 1 s,
 * ×2, capped at 100 × initial, unlimited attempts), within a budget: the task must complete before
 * its start-to-close timeout, so the worker gives all local activities of one task
 * {@link LOCAL_ACTIVITY_BUDGET_SHARE} of it. An attempt is cut at the budget's end (it fails as a
 * start-to-close timeout); a retry whose backoff would end past the budget is not waited for here:
 * the outcome is `backoff`, and the workflow waits on a durable timer and asks for the next attempt
 * in a later task. So a workflow task never times out because a local activity runs long; Temporal
 * heartbeats the task instead, which this engine's task protocol has no message for.
 * @module
 */
import type { DataConverter, Payload } from '../../topics/payload/index.js';
import type { RetryState } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { LocalActivityOutcome, LocalActivityRequest } from '../replay/local-activity-markers.js';
import { activityLogger, cancellationHelpers, runInActivityContext, type ActivityInfo } from './activity-context.js';
import type { ActivityFunction } from './activity-worker.js';
import { toFailure } from './worker-connection.js';

/** Share of the workflow task timeout that the task's local activities may use. */
export const LOCAL_ACTIVITY_BUDGET_SHARE = 0.8;

/** The run and the deadline of the task the local activities run in. */
export interface LocalActivityTaskContext {
  readonly namespace: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  /** Epoch ms by which every local activity of the task must have ended. */
  readonly budgetDeadline: number;
}

type Policy = { initialIntervalMs: number; backoffCoefficient: number; maximumIntervalMs: number; maximumAttempts: number; nonRetryableErrorTypes: string[] };

function policyOf(request: LocalActivityRequest): Policy {
  const p = request.options.retryPolicy;
  const initial = p?.initialIntervalMs || 1_000;
  return {
    initialIntervalMs: initial, backoffCoefficient: p?.backoffCoefficient || 2, maximumIntervalMs: p?.maximumIntervalMs || 100 * initial,
    maximumAttempts: p?.maximumAttempts ?? 0, nonRetryableErrorTypes: p?.nonRetryableErrorTypes ?? [],
  };
}

const backoffAfter = (policy: Policy, attempt: number): number =>
  Math.min(policy.maximumIntervalMs, Math.floor(policy.initialIntervalMs * policy.backoffCoefficient ** (attempt - 1)));

const sdkFailure = (code: string, message: string, nonRetryable = false): Failure => ({ message, source: 'TypeScriptSDK', stackTrace: '', code, nonRetryable, details: null, cause: null });
const timeoutFailure = (message: string): Failure => sdkFailure('TimeoutFailure', message);

type AttemptResult = { ok: true; result: Payload } | { ok: false; failure: Failure };

class AttemptTimedOut extends Error {}

/** Runs the local activities of a worker's task queue (the activities registered with the worker). */
export class LocalActivityExecutor {
  constructor(
    private readonly activities: Readonly<Record<string, ActivityFunction>>,
    private readonly converter: DataConverter,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Runs every request to an outcome (never rejects: failures are outcomes). */
  run(requests: readonly LocalActivityRequest[], task: LocalActivityTaskContext): Promise<LocalActivityOutcome[]> {
    return Promise.all(requests.map((request) => this.runOne(request, task)));
  }

  private async runOne(request: LocalActivityRequest, task: LocalActivityTaskContext): Promise<LocalActivityOutcome> {
    const base = { seq: request.seq, activityType: request.activityType };
    const fn = this.activities[request.activityType];
    if (!fn) {
      const known = Object.keys(this.activities).join(', ');
      const failure = sdkFailure('ActivityTypeNotFound', `local activity type '${request.activityType}' is not registered with the workflow worker of task queue ${task.taskQueue} (known: ${known})`, true);
      return { ...base, attempt: request.options.attempt, kind: 'failed', failure, retryState: 'NonRetryableFailure' };
    }
    const policy = policyOf(request);
    const { scheduleToCloseTimeoutMs, startToCloseTimeoutMs, originalScheduleTimeMs } = request.options;
    const closeDeadline = scheduleToCloseTimeoutMs === null ? Infinity : originalScheduleTimeMs + scheduleToCloseTimeoutMs;
    for (let attempt = request.options.attempt; ; attempt++) {
      const now = this.clock();
      const attemptMs = Math.min(startToCloseTimeoutMs ?? Infinity, closeDeadline - now, task.budgetDeadline - now);
      if (attemptMs <= 0) {
        // Nothing left of this task's budget: the next attempt runs in a later task, after a short timer.
        if (closeDeadline <= now) return { ...base, attempt, kind: 'failed', failure: timeoutFailure('local activity schedule-to-close timeout'), retryState: 'Timeout' };
        return { ...base, attempt: attempt - 1, kind: 'backoff', failure: timeoutFailure('the workflow task had no time left for the local activity'), backoffMs: 1 };
      }
      const result = await this.attempt(fn, request, task, attempt, attemptMs);
      if (result.ok) return { ...base, attempt, kind: 'completed', result: result.result };
      const failure = result.failure;
      const stop = this.stopReason(policy, failure, attempt);
      if (stop) return { ...base, attempt, kind: 'failed', failure, retryState: stop };
      const backoffMs = backoffAfter(policy, attempt);
      const resumeAt = this.clock() + backoffMs;
      if (resumeAt >= closeDeadline) return { ...base, attempt, kind: 'failed', failure, retryState: 'Timeout' };
      if (resumeAt >= task.budgetDeadline) return { ...base, attempt, kind: 'backoff', failure, backoffMs };
      await new Promise((r) => setTimeout(r, backoffMs));
    }
  }

  private stopReason(policy: Policy, failure: Failure, attempt: number): RetryState | null {
    if (failure.nonRetryable || policy.nonRetryableErrorTypes.includes(failure.code)) return 'NonRetryableFailure';
    if (policy.maximumAttempts > 0 && attempt >= policy.maximumAttempts) return 'MaximumAttemptsReached';
    return null;
  }

  // One attempt under its timeout: the encoded result, or the failure.
  private async attempt(fn: ActivityFunction, request: LocalActivityRequest, task: LocalActivityTaskContext, attempt: number, timeoutMs: number): Promise<AttemptResult> {
    const abort = new AbortController();
    const activityId = `local-${request.seq}`;
    const info: ActivityInfo = {
      namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, activityId,
      activityType: request.activityType, taskQueue: task.taskQueue, attempt, idempotencyKey: `${task.workflowId}:${task.runId}:${activityId}`,
      heartbeatDetails: undefined,
      workflowExecution: { workflowId: task.workflowId, runId: task.runId }, workflowNamespace: task.namespace, activityNamespace: task.namespace, isLocal: true,
      startToCloseTimeoutMs: timeoutMs, scheduleToCloseTimeoutMs: request.options.scheduleToCloseTimeoutMs ?? undefined, heartbeatTimeoutMs: undefined,
      scheduledTimestampMs: request.options.originalScheduleTimeMs, currentAttemptScheduledTimestampMs: Date.now(), startedTimestampMs: Date.now(),
      taskToken: new Uint8Array(), base64TaskToken: '',
    };
    const context = {
      info,
      log: activityLogger(info),
      cancellationSignal: abort.signal,
      ...cancellationHelpers(abort.signal),
      // A local activity reports nothing to the engine while it runs.
      heartbeat: () => undefined,
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AttemptTimedOut()), Math.min(timeoutMs, 2 ** 31 - 1));
    });
    try {
      const args = request.args.map((p) => this.converter.fromPayload(p)) as never[];
      const value = await Promise.race([runInActivityContext(context, () => fn(...args)), timedOut]);
      return { ok: true, result: this.converter.toPayload(value)! };
    } catch (error) {
      if (!(error instanceof AttemptTimedOut)) return { ok: false, failure: toFailure(error) };
      abort.abort(new Error('local activity attempt timed out'));
      return { ok: false, failure: timeoutFailure(`local activity attempt ${attempt} timed out after ${timeoutMs} ms (start-to-close, or the workflow task's budget)`) };
    } finally {
      clearTimeout(timer);
    }
  }
}
