/**
 * Workflows for the cancellation tests (replay unit tests and the conformance tests on both
 * backends): activities cancelled with each cancellation type, a workflow cancelled by its client
 * that cleans up in a non-cancellable scope, scope timeouts, cancelled timers, non-retryable
 * failures and an oversized result.
 * @module
 */
import type { ApplicationFailure } from '../../sdk/workflow/index.js';
import {
  ActivityCancellationType,
  ActivityFailure,
  CancellationScope,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
} from '../../sdk/workflow/index.js';

/** The activities the workflows call (implemented by the tests). */
export interface CancellationActivities {
  /** Runs until cancelled (then throws the cancellation), or until the test lets it finish. */
  blockUntilCancelled(key: string): Promise<string>;
  /** Records that cleanup ran for `key`. */
  cleanup(key: string): Promise<string>;
  /** Throws `ApplicationFailure.nonRetryable` (type `Declined`). */
  failNonRetryable(key: string): Promise<string>;
  /** Throws a retryable `ApplicationFailure` of type `Declined` (listed as non-retryable by the caller). */
  failDeclined(key: string): Promise<string>;
  /** Returns a string of `bytes` characters. */
  returnLarge(bytes: number): Promise<string>;
  /** Heartbeats its progress through `steps` and resumes from the last heartbeat of a previous attempt. */
  countWithHeartbeats(key: string, steps: number): Promise<number[]>;
}

const options = { startToCloseTimeout: '2m', retry: { initialInterval: '200ms', maximumAttempts: 5 } } as const;
const byType: Record<ActivityCancellationType, CancellationActivities> = {
  TRY_CANCEL: proxyActivities<CancellationActivities>({ ...options, cancellationType: ActivityCancellationType.TRY_CANCEL }),
  WAIT_CANCELLATION_COMPLETED: proxyActivities<CancellationActivities>({ ...options, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED }),
  ABANDON: proxyActivities<CancellationActivities>({ ...options, cancellationType: ActivityCancellationType.ABANDON }),
};
const unlimited = proxyActivities<CancellationActivities>({ startToCloseTimeout: '1m', retry: { initialInterval: '100ms', nonRetryableErrorTypes: ['Declined'] } });

/** Sent by the tests: cancels the scope the workflow runs its activity (or sleep) in. */
export const cancelScope = defineSignal('cancelScope');

/** How an awaited call ended, as the workflow saw it. */
function outcomeOf(err: unknown): string {
  if (isCancellation(err)) return `cancelled (${err instanceof ActivityFailure ? 'ActivityFailure caused by CancelledFailure' : 'CancelledFailure'})`;
  return `failed: ${(err as Error).message}`;
}

/** Runs `blockUntilCancelled` with the given cancellation type in a scope the `cancelScope` signal cancels. */
export async function cancelActivityOnSignal(key: string, type: ActivityCancellationType): Promise<string> {
  const scope = new CancellationScope();
  setHandler(cancelScope, () => scope.cancel('cancelled by signal'));
  try {
    return `completed: ${await scope.run(() => byType[type].blockUntilCancelled(key))}`;
  } catch (err) {
    return outcomeOf(err);
  }
}

/**
 * Waits on `blockUntilCancelled` (waiting for the cancellation to complete); when the run is
 * cancelled, cleans up in a non-cancellable scope and ends Canceled.
 */
export async function cleansUpWhenCancelled(key: string): Promise<string> {
  try {
    return await byType.WAIT_CANCELLATION_COMPLETED.blockUntilCancelled(key);
  } catch (err) {
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => byType.TRY_CANCEL.cleanup(key));
    throw err;
  }
}

/** Gives `blockUntilCancelled` `limit`, through `withTimeout` or the scope's `timeout` option. */
export async function activityWithin(key: string, limit: string, how: 'withTimeout' | 'option'): Promise<string> {
  const call = () => byType.TRY_CANCEL.blockUntilCancelled(key);
  try {
    const result = how === 'withTimeout' ? CancellationScope.withTimeout(limit, call) : new CancellationScope({ timeout: limit }).run(call);
    return `completed: ${await result}`;
  } catch (err) {
    return outcomeOf(err);
  }
}

/** Sleeps an hour in a scope the `cancelScope` signal cancels. */
export async function cancellableSleep(): Promise<string> {
  const scope = new CancellationScope();
  setHandler(cancelScope, () => scope.cancel());
  try {
    await scope.run(() => sleep('1h'));
    return 'slept';
  } catch (err) {
    return outcomeOf(err);
  }
}

/** Calls an activity that fails with a non-retryable failure (`nonRetryable` flag, or its type listed). */
export async function nonRetryable(key: string, how: 'flag' | 'type'): Promise<string> {
  try {
    return await (how === 'flag' ? unlimited.failNonRetryable(key) : unlimited.failDeclined(key));
  } catch (err) {
    const cause = (err as ActivityFailure).cause as ApplicationFailure;
    return `${(err as ActivityFailure).retryState}: ${cause.type}: ${cause.message}`;
  }
}

/** Returns a string of `bytes` characters (over the payload limit when large enough). */
export async function returnsLarge(bytes: number): Promise<string> {
  return 'x'.repeat(bytes);
}

/** Calls an activity whose result is `bytes` long; returns how the call ended. */
export async function largeActivityResult(bytes: number): Promise<string> {
  try {
    return `completed with ${(await unlimited.returnLarge(bytes)).length} characters`;
  } catch (err) {
    const cause = (err as ActivityFailure).cause as ApplicationFailure;
    return `${(err as ActivityFailure).retryState}: ${cause.type}: ${cause.message}`;
  }
}

/** Counts to `steps` in an activity that heartbeats, and returns the steps the last attempt ran. */
export async function heartbeatResume(key: string, steps: number): Promise<number[]> {
  const resumable = proxyActivities<CancellationActivities>({ startToCloseTimeout: '2m', heartbeatTimeout: '5s', retry: { initialInterval: '200ms' } });
  return resumable.countWithHeartbeats(key, steps);
}
