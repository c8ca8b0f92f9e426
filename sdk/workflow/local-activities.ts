/**
 * `proxyLocalActivities` (Temporal's local activities): activities the workflow worker runs itself,
 * outside the sandbox, during the workflow task that calls them — no activity task, no round trip
 * through the engine. The worker records each outcome as an `sdk.local-activity` marker in the
 * task's completion; replay takes the outcome from the marker and does not run the activity again.
 *
 * Retries: the worker retries an attempt within the task while the backoff fits in the task's
 * local-activity budget; a longer backoff comes back as a `backoff` resolution, and the code here
 * waits on a durable timer (a `StartTimer`, replayed like any) and asks for the next attempt in a
 * later task — Temporal's rule for backoffs beyond the local retry threshold.
 * @module
 */
import type { Activator } from './activator.js';
import type { ActivationJob, LocalActivityRequestOptions } from './bridge.js';
import { CancellationScope } from './cancellation-scope.js';
import { currentActivator } from './current-activator.js';
import { optionalDurationToMs } from './duration.js';
import { toScheduleOptions, type ActivityInterfaceFor, type RetryOptions } from './activities.js';
import { ActivityFailure } from './errors.js';
import { errorFromFailureInfo } from './failure-info.js';
import { startTimer } from './operations.js';
import type { Duration } from './duration.js';

/** Options of the local activities of one {@link proxyLocalActivities} call. Durations: ms or `'10s'`. */
export interface LocalActivityOptions {
  /** Bounds one attempt. Set this or `scheduleToCloseTimeout` (or both). */
  startToCloseTimeout?: Duration;
  /** Bounds the whole local activity, retries and their timers included. */
  scheduleToCloseTimeout?: Duration;
  /** Omitted = Temporal's default policy (1 s, ×2, up to 100 × initial, unlimited attempts). */
  retry?: RetryOptions;
}

type Resolution = Extract<ActivationJob, { type: 'resolveLocalActivity' }>['resolution'];

/** The activator's pending local activities, by sequence number (kept beside its other maps). */
const pendingByActivator = new WeakMap<Activator, Map<number, { activityType: string; settle(resolution: Resolution): void }>>();

function pendingOf(activator: Activator) {
  let pending = pendingByActivator.get(activator);
  if (pending === undefined) pendingByActivator.set(activator, (pending = new Map()));
  return pending;
}

/** Settles local activity `job.seq` (absent when the workflow no longer waits for it). */
export function resolveLocalActivity(activator: Activator, job: Extract<ActivationJob, { type: 'resolveLocalActivity' }>): void {
  const pending = pendingOf(activator);
  const waiting = pending.get(job.seq);
  if (waiting === undefined) return;
  pending.delete(job.seq);
  waiting.settle(job.resolution);
}

/** One request to the worker; resolves with its resolution (the caller interprets it). */
function requestAttempt(activator: Activator, scope: CancellationScope, activityType: string, args: unknown[], options: LocalActivityRequestOptions): Promise<Resolution> {
  const seq = activator.nextSeq('localActivity');
  return new Promise<Resolution>((resolve, reject) => {
    const unsubscribe = scope.onCancel((why) => {
      // The worker still runs (and records) what was requested; the workflow just stops waiting.
      if (pendingOf(activator).delete(seq)) reject(new ActivityFailure(`local activity ${activityType} (id ${seq}) cancelled`, activityType, String(seq), null, why));
    });
    pendingOf(activator).set(seq, {
      activityType,
      settle: (resolution) => {
        unsubscribe();
        resolve(resolution);
      },
    });
    activator.pushCommand({ type: 'ScheduleLocalActivity', seq, activityType, args, options });
  });
}

/** Runs a local activity to its end: attempts in tasks, durable timers between them when the worker asks. */
async function runLocalActivity(activator: Activator, activityType: string, args: unknown[], options: Omit<LocalActivityRequestOptions, 'attempt' | 'originalScheduleTimeMs'>): Promise<unknown> {
  const scope = CancellationScope.current();
  if (scope.reason !== null) throw scope.reason;
  const encoded = args.map((arg) => activator.host.encode(arg));
  const originalScheduleTimeMs = activator.now;
  for (let attempt = 1; ; ) {
    const resolution = await requestAttempt(activator, scope, activityType, encoded, { ...options, attempt, originalScheduleTimeMs });
    if (resolution.kind === 'completed') return resolution.value;
    if (resolution.kind === 'backoff') {
      await startTimer(activator, scope, resolution.backoffMs).promise;
      attempt = resolution.nextAttempt;
      continue;
    }
    const cause = errorFromFailureInfo(resolution.failure);
    throw new ActivityFailure(`local activity ${activityType} failed: ${cause.message}`, activityType, `local-${attempt}`, resolution.retryState, cause);
  }
}

/**
 * Typed stubs for local activities: each call runs the activity in the workflow worker during this
 * workflow task (the worker must register it in `activities`), records the outcome in an
 * `sdk.local-activity` marker and resolves with the result, or rejects with an `ActivityFailure`
 * whose `cause` says why. For short calls (a lookup, a validation) that need no queue of their own.
 *
 * @param options `startToCloseTimeout` or `scheduleToCloseTimeout` (or both), retry policy
 * @throws TypeError for missing timeouts or malformed durations
 * @example
 * const { lookupPrice } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '2s' });
 * const price = await lookupPrice(sku);
 */
export function proxyLocalActivities<A extends object>(options: LocalActivityOptions): ActivityInterfaceFor<A> {
  if (options.startToCloseTimeout === undefined && options.scheduleToCloseTimeout === undefined) {
    throw new TypeError('proxyLocalActivities: set startToCloseTimeout or scheduleToCloseTimeout (or both)');
  }
  const checked = toScheduleOptions(options);
  const requestOptions = {
    startToCloseTimeoutMs: optionalDurationToMs(options.startToCloseTimeout, 'startToCloseTimeout'),
    scheduleToCloseTimeoutMs: checked.scheduleToCloseTimeoutMs,
    retryPolicy: checked.retryPolicy,
  };
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, activityType) {
      if (typeof activityType !== 'string') return undefined;
      return (...args: unknown[]) => runLocalActivity(currentActivator(activityType), activityType, args, requestOptions);
    },
  });
}
