/**
 * The three things workflow code can wait for — a durable timer, an activity, a condition — each
 * issuing its command, registering its completion under a sequence number, and cancelling itself
 * when its scope is cancelled. The public functions in `index.ts` are thin layers over these.
 * @module
 */
import type { Activator } from './activator.js';
import type { ScheduleActivityOptions } from './bridge.js';
import type { ActivityCancellationType } from './activities.js';
import type { CancellationScope } from './cancellation-scope.js';
import { ActivityFailure, CancelledFailure } from './errors.js';

/** A started timer. */
export interface TimerHandle {
  readonly seq: number;
  /** Resolves when the timer fires; rejects with a {@link CancelledFailure} when cancelled. */
  readonly promise: Promise<void>;
  /** Cancels the timer (no-op once it fired): `CancelTimer`, or nothing if not yet sent. */
  cancel(message?: string): void;
}

/** A blocked condition that can be abandoned. */
export interface ConditionHandle {
  readonly promise: Promise<void>;
  cancel(): void;
}

/** Starts a durable timer in `scope` (`StartTimer{timerId: seq}`); fires on `TimerFired`. */
export function startTimer(activator: Activator, scope: CancellationScope, ms: number): TimerHandle {
  const reason = scope.reason;
  if (reason !== null) return { seq: 0, promise: handled(Promise.reject(reason)), cancel: noop };
  const seq = activator.nextSeq('timer');
  let cancel: (why: CancelledFailure) => void = noop;
  const promise = new Promise<void>((resolve, reject) => {
    const unsubscribe = scope.onCancel((why) => cancel(why));
    cancel = (why) => {
      unsubscribe();
      if (!activator.timers.delete(seq)) return;
      if (!activator.dropUnsentCommand('StartTimer', seq)) activator.pushCommand({ type: 'CancelTimer', seq });
      reject(why);
    };
    activator.timers.set(seq, {
      resolve: () => {
        unsubscribe();
        resolve();
      },
      reject,
    });
    // The engine refuses zero-length timers; 1 ms keeps `sleep(0)` a real (durable) yield.
    activator.pushCommand({ type: 'StartTimer', seq, ms: Math.max(1, ms) });
  });
  return { seq, promise: handled(promise), cancel: (message = 'Timer cancelled') => cancel(new CancelledFailure(message)) };
}

/**
 * Schedules an activity in `scope` (`ScheduleActivityTask{activityId: seq}`). Arguments are
 * encoded now, so later mutation by the workflow cannot change what is recorded. What a
 * cancellation of the scope does depends on `cancellationType` (see `ActivityCancellationType`);
 * an activity whose command was not sent yet is dropped and rejected at once whatever the type.
 */
export function scheduleActivity(
  activator: Activator,
  scope: CancellationScope,
  activityType: string,
  args: unknown[],
  options: ScheduleActivityOptions,
  cancellationType: ActivityCancellationType = 'TRY_CANCEL',
): Promise<unknown> {
  const reason = scope.reason;
  if (reason !== null) return handled(Promise.reject(reason));
  let encoded: unknown[];
  try {
    encoded = args.map((arg) => activator.host.encode(arg));
  } catch (err) {
    return handled(Promise.reject(err));
  }
  const seq = activator.nextSeq('activity');
  const promise = new Promise<unknown>((resolve, reject) => {
    const cancelled = (why: CancelledFailure) => new ActivityFailure(`activity ${activityType} (id ${seq}) cancelled`, activityType, String(seq), null, why);
    const unsubscribe = scope.onCancel((why) => {
      if (!activator.activities.has(seq)) return;
      const unsent = activator.dropUnsentCommand('ScheduleActivityTask', seq);
      if (!unsent && cancellationType !== 'ABANDON') activator.pushCommand({ type: 'RequestCancelActivityTask', seq });
      // Waiting: the entry stays, and the activity's end (ActivityTaskCanceled, or a result) settles the call.
      if (!unsent && cancellationType === 'WAIT_CANCELLATION_COMPLETED') return;
      activator.activities.delete(seq);
      reject(cancelled(why));
    });
    activator.activities.set(seq, {
      activityType,
      resolve: (value) => {
        unsubscribe();
        resolve(value);
      },
      reject: (error) => {
        unsubscribe();
        reject(error);
      },
    });
    activator.pushCommand({ type: 'ScheduleActivityTask', seq, activityType, args: encoded, options });
  });
  return handled(promise);
}

/**
 * Waits until `fn()` holds. Checked now, then after every activation's jobs and microtasks (the
 * host loops until no condition unblocks), so `fn` sees state changed by signals and results.
 */
export function waitCondition(activator: Activator, scope: CancellationScope, fn: () => boolean): ConditionHandle {
  const reason = scope.reason;
  if (reason !== null) return { promise: handled(Promise.reject(reason)), cancel: noop };
  if (fn()) return { promise: Promise.resolve(), cancel: noop };
  const seq = activator.nextSeq('condition');
  let cancel: (why: CancelledFailure) => void = noop;
  const promise = new Promise<void>((resolve, reject) => {
    const unsubscribe = scope.onCancel((why) => cancel(why));
    cancel = (why) => {
      unsubscribe();
      if (activator.conditions.delete(seq)) reject(why);
    };
    activator.conditions.set(seq, {
      fn,
      resolve: () => {
        unsubscribe();
        resolve();
      },
    });
  });
  return { promise: handled(promise), cancel: () => cancel(new CancelledFailure('Condition abandoned')) };
}

/**
 * Marks an operation's promise as handled, so that it rejecting before the workflow awaits it
 * (`const a = act1(); const b = act2(); await a; await b;` with `b` failing first) is not an
 * "unhandled rejection" for the host process. Whoever awaits it still gets the rejection.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(noop);
  return promise;
}

function noop(): void {}
