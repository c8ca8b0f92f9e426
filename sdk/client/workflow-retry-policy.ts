/**
 * The retry policy of a whole workflow at start (Temporal's `retry` start option, here
 * `retryPolicy`): a run that fails or reaches its run timeout is started again as a new run of the
 * same workflow id while the policy allows. Same fields as an activity's retry options.
 * @module
 */
import type { RetryPolicy } from '../../topics/schemas/common/v1-records.js';
import type { RetryOptions } from '../workflow/activities.js';
import { durationToMs, optionalDurationToMs } from '../workflow/duration.js';

/** How failed runs of a workflow are retried; unset fields use the defaults (1 s, × 2, up to 100 × initial, unlimited attempts). */
export type WorkflowRetryOptions = RetryOptions;

/**
 * The start request's retry policy for these options (null when unset). Throws TypeError naming
 * the field for a value that is not a policy (the options may come from an HTTP body).
 */
export function workflowRetryPolicy(options: WorkflowRetryOptions | undefined | null): RetryPolicy | null {
  if (options === undefined || options === null) return null;
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError("'retryPolicy' must be an object");
  const backoffCoefficient = options.backoffCoefficient ?? 2;
  const maximumAttempts = options.maximumAttempts ?? 0;
  const nonRetryable = options.nonRetryableErrorTypes ?? [];
  if (typeof backoffCoefficient !== 'number' || !(backoffCoefficient >= 1)) throw new TypeError('retryPolicy.backoffCoefficient must be a number of at least 1');
  if (!Number.isInteger(maximumAttempts) || maximumAttempts < 0) throw new TypeError('retryPolicy.maximumAttempts must be a whole number (0 = unlimited)');
  if (!Array.isArray(nonRetryable) || nonRetryable.some((t) => typeof t !== 'string')) {
    throw new TypeError('retryPolicy.nonRetryableErrorTypes must be an array of failure types (strings)');
  }
  return {
    initialIntervalMs: durationToMs(options.initialInterval ?? 1000, 'retryPolicy.initialInterval'),
    backoffCoefficient,
    maximumIntervalMs: optionalDurationToMs(options.maximumInterval, 'retryPolicy.maximumInterval'),
    maximumAttempts,
    nonRetryableErrorTypes: [...nonRetryable],
  };
}
