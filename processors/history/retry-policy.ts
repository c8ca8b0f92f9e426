/**
 * Activity retry policies (Temporal's semantics): defaults, validation and the retry decision.
 * The decision is a pure function of the policy, the attempt that just failed, its failure, the
 * time and the schedule-to-close deadline, so a retry schedule is reproducible from the state.
 * @module
 */
import type { RetryState } from '../../topics/schemas/common/v1-enums.js';
import type { Failure, RetryPolicy } from '../../topics/schemas/common/v1-records.js';

/** Temporal's default activity retry: 1 s, × 2, capped at 100 × initial, unlimited attempts. */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maximumIntervalMs: 100_000,
  maximumAttempts: 0,
  nonRetryableErrorTypes: [],
});

/** Why a retry policy cannot be used, or null if it can. Zero means "default" (as Temporal's unset). */
export function retryPolicyProblem(policy: RetryPolicy | null): string | null {
  if (policy === null) return null;
  if (!Number.isFinite(policy.initialIntervalMs) || policy.initialIntervalMs < 0) return 'initialIntervalMs must be ≥ 0';
  if (!Number.isFinite(policy.backoffCoefficient) || (policy.backoffCoefficient !== 0 && policy.backoffCoefficient < 1)) {
    return 'backoffCoefficient must be ≥ 1';
  }
  if (!Number.isInteger(policy.maximumAttempts) || policy.maximumAttempts < 0) return 'maximumAttempts must be an integer ≥ 0';
  const initial = policy.initialIntervalMs || defaultRetryPolicy.initialIntervalMs;
  if (policy.maximumIntervalMs !== null && policy.maximumIntervalMs !== 0 && policy.maximumIntervalMs < initial) {
    return 'maximumIntervalMs must be ≥ initialIntervalMs';
  }
  return null;
}

/** The effective policy: every unset (null or 0) value replaced by its default. */
export function normalizeRetryPolicy(policy: RetryPolicy | null): RetryPolicy {
  const initial = policy?.initialIntervalMs || defaultRetryPolicy.initialIntervalMs;
  return {
    initialIntervalMs: initial,
    backoffCoefficient: policy?.backoffCoefficient || defaultRetryPolicy.backoffCoefficient,
    maximumIntervalMs: policy?.maximumIntervalMs || 100 * initial,
    maximumAttempts: policy?.maximumAttempts ?? 0,
    nonRetryableErrorTypes: [...(policy?.nonRetryableErrorTypes ?? [])],
  };
}

/** Backoff after attempt `attempt` failed: initial × coefficient^(attempt − 1), capped. */
export function retryBackoffMs(policy: RetryPolicy, attempt: number): number {
  const cap = policy.maximumIntervalMs ?? 100 * policy.initialIntervalMs;
  const raw = policy.initialIntervalMs * policy.backoffCoefficient ** (attempt - 1);
  return Number.isFinite(raw) && raw < cap ? Math.floor(raw) : cap;
}

/** True unless the failure says so or its code is one of the policy's non-retryable types. */
export function isRetryable(policy: RetryPolicy, failure: Failure): boolean {
  return !failure.nonRetryable && !policy.nonRetryableErrorTypes.includes(failure.code);
}

/** What to do after an attempt failed. */
export type RetryDecision = { retry: true; backoffMs: number } | { retry: false; retryState: RetryState };

/** Inputs of a retry decision. */
export interface RetryInput {
  policy: RetryPolicy;
  /** The attempt that just failed (1-based). */
  attempt: number;
  failure: Failure;
  now: number;
  /** Schedule-to-close deadline; no retry may start after it. */
  deadline: number | null;
  cancelRequested: boolean;
}

/**
 * Decides whether to retry, in Temporal's order: a requested cancellation, the attempt limit, a
 * non-retryable failure, then the deadline (a retry that would start at or after it is not
 * scheduled: it would have no time to run, and the deadline's own timer fires at that instant).
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const { policy, attempt } = input;
  if (input.cancelRequested) return { retry: false, retryState: 'CancelRequested' };
  if (policy.maximumAttempts > 0 && attempt >= policy.maximumAttempts) return { retry: false, retryState: 'MaximumAttemptsReached' };
  if (!isRetryable(policy, input.failure)) return { retry: false, retryState: 'NonRetryableFailure' };
  const backoffMs = retryBackoffMs(policy, attempt);
  if (input.deadline !== null && input.now + backoffMs >= input.deadline) return { retry: false, retryState: 'Timeout' };
  return { retry: true, backoffMs };
}
