/**
 * Durable waiting: `sleep` and `condition`.
 * @module
 */
import { CancellationScope } from './cancellation-scope.js';
import { currentActivator } from './current-activator.js';
import { durationToMs, type Duration } from './duration.js';
import { startTimer, waitCondition } from './operations.js';

/** Implementation of the public `sleep`. */
export function sleep(duration: Duration): Promise<void> {
  const activator = currentActivator('sleep');
  return startTimer(activator, CancellationScope.current(), durationToMs(duration, 'sleep')).promise;
}

/** Implementation of the public `condition`. */
export async function condition(fn: () => boolean, timeout?: Duration): Promise<boolean> {
  const activator = currentActivator('condition');
  const scope = CancellationScope.current();
  if (timeout === undefined) {
    await waitCondition(activator, scope, fn).promise;
    return true;
  }
  const ms = durationToMs(timeout, 'condition timeout');
  // Already true: no timer, so no command and no wasted round trip.
  if (scope.reason === null && fn()) return true;
  const timer = startTimer(activator, scope, ms);
  const blocked = waitCondition(activator, scope, fn);
  try {
    return await Promise.race([blocked.promise.then(() => true), timer.promise.then(() => false)]);
  } finally {
    timer.cancel();
    blocked.cancel();
  }
}
