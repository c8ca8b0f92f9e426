/**
 * `proxyActivities`: typed stubs whose calls schedule activities.
 * @module
 */
import type { ScheduleActivityOptions } from './bridge.js';
import { CancellationScope } from './cancellation-scope.js';
import { currentActivator } from './current-activator.js';
import { durationToMs, optionalDurationToMs, type Duration } from './duration.js';
import { scheduleActivity } from './operations.js';

/** How a failed activity is retried (Temporal's `RetryPolicy`). Unset fields use the defaults. */
export interface RetryOptions {
  /** Wait before the first retry. Default 1 s. */
  initialInterval?: Duration;
  /** Multiplier of the wait after each retry. Default 2. */
  backoffCoefficient?: number;
  /** Cap on the wait. Default 100 × `initialInterval`. */
  maximumInterval?: Duration;
  /** Attempts in total, the first included; 0 = unlimited (default). */
  maximumAttempts?: number;
  /** Failure types (an `ApplicationFailure`'s `type`) that are never retried. */
  nonRetryableErrorTypes?: string[];
}

/**
 * What cancelling an activity's scope does (Temporal's `ActivityCancellationType`):
 * - `TRY_CANCEL` (default): request cancellation and reject the call at once with an
 *   `ActivityFailure` caused by a `CancelledFailure`; a result that still arrives is ignored.
 * - `WAIT_CANCELLATION_COMPLETED`: request cancellation and settle the call only when the activity
 *   ended — rejected once the worker reported it cancelled (ActivityTaskCanceled), or with its
 *   result or failure if it finished first.
 * - `ABANDON`: request nothing (the activity runs on) and reject the call at once.
 */
export const ActivityCancellationType = {
  TRY_CANCEL: 'TRY_CANCEL',
  WAIT_CANCELLATION_COMPLETED: 'WAIT_CANCELLATION_COMPLETED',
  ABANDON: 'ABANDON',
} as const;
/** @see ActivityCancellationType */
export type ActivityCancellationType = (typeof ActivityCancellationType)[keyof typeof ActivityCancellationType];

/** Options of the activities of one {@link proxyActivities} call. Durations: ms or `'10s'`. */
export interface ActivityOptions {
  /** Bounds one attempt. Set this or `scheduleToCloseTimeout` (or both). */
  startToCloseTimeout?: Duration;
  /** Bounds the whole activity, retries included. */
  scheduleToCloseTimeout?: Duration;
  /** Bounds the wait in the task queue. */
  scheduleToStartTimeout?: Duration;
  /** A running attempt must heartbeat at least this often. */
  heartbeatTimeout?: Duration;
  /** Omitted = the engine's default policy (1 s, ×2, up to 100 s, unlimited attempts). */
  retry?: RetryOptions;
  /** Defaults to the workflow's task queue. */
  taskQueue?: string;
  /** What cancelling the calling scope does; default `TRY_CANCEL`. */
  cancellationType?: ActivityCancellationType;
}

/** The workflow-side view of an activity module: every function returns a promise. */
export type ActivityInterfaceFor<A> = {
  [K in keyof A]: A[K] extends (...args: infer P) => infer R ? (...args: P) => Promise<Awaited<R>> : never;
};

/** Validates options and converts them to what `ScheduleActivityTask` records. */
export function toScheduleOptions(options: ActivityOptions): ScheduleActivityOptions {
  if (options.startToCloseTimeout === undefined && options.scheduleToCloseTimeout === undefined) {
    throw new TypeError('proxyActivities: set startToCloseTimeout or scheduleToCloseTimeout (or both)');
  }
  const retry = options.retry;
  return {
    taskQueue: options.taskQueue ?? null,
    scheduleToCloseTimeoutMs: optionalDurationToMs(options.scheduleToCloseTimeout, 'scheduleToCloseTimeout'),
    scheduleToStartTimeoutMs: optionalDurationToMs(options.scheduleToStartTimeout, 'scheduleToStartTimeout'),
    startToCloseTimeoutMs: optionalDurationToMs(options.startToCloseTimeout, 'startToCloseTimeout'),
    heartbeatTimeoutMs: optionalDurationToMs(options.heartbeatTimeout, 'heartbeatTimeout'),
    retryPolicy: retry === undefined ? null : toRetryPolicy(retry),
  };
}

/** Validates retry options and converts them to a recorded retry policy (durations in ms). */
export function toRetryPolicy(retry: RetryOptions): NonNullable<ScheduleActivityOptions['retryPolicy']> {
  const backoffCoefficient = retry.backoffCoefficient ?? 2;
  const maximumAttempts = retry.maximumAttempts ?? 0;
  if (!(backoffCoefficient >= 1)) throw new TypeError('retry.backoffCoefficient must be at least 1');
  if (!Number.isInteger(maximumAttempts) || maximumAttempts < 0) {
    throw new TypeError('retry.maximumAttempts must be a whole number (0 = unlimited)');
  }
  return {
    initialIntervalMs: durationToMs(retry.initialInterval ?? 1000, 'retry.initialInterval'),
    backoffCoefficient,
    maximumIntervalMs: optionalDurationToMs(retry.maximumInterval, 'retry.maximumInterval'),
    maximumAttempts,
    nonRetryableErrorTypes: [...(retry.nonRetryableErrorTypes ?? [])],
  };
}

/** Implementation of the public `proxyActivities`. */
export function proxyActivities<A extends object>(options: ActivityOptions): ActivityInterfaceFor<A> {
  const scheduleOptions = toScheduleOptions(options);
  const cancellationType = options.cancellationType ?? ActivityCancellationType.TRY_CANCEL;
  if (!Object.values(ActivityCancellationType).includes(cancellationType)) {
    throw new TypeError(`proxyActivities: cancellationType must be one of ${Object.values(ActivityCancellationType).join(', ')}`);
  }
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, activityType) {
      // Symbols are probes (util.inspect, await's `then` lookup is a string but harmless): no activity.
      if (typeof activityType !== 'string') return undefined;
      return (...args: unknown[]) => {
        const activator = currentActivator(activityType);
        return scheduleActivity(activator, CancellationScope.current(), activityType, args, scheduleOptions, cancellationType);
      };
    },
  });
}
