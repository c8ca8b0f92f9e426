/**
 * Finds the run's {@link Activator}. It lives on the sandbox's global object rather than in a
 * module variable so that even two copies of this module in one bundle share one run state.
 * @module
 */
import type { Activator } from './activator.js';
import { ACTIVATOR_GLOBAL } from './bridge.js';
import { IllegalStateError } from './errors.js';

export { ACTIVATOR_GLOBAL };

/** The activator of the run this code executes in, or `undefined` outside workflow code. */
export function maybeActivator(): Activator | undefined {
  return (globalThis as Record<string, unknown>)[ACTIVATOR_GLOBAL] as Activator | undefined;
}

/**
 * The activator of the run this code executes in.
 * @param api names the caller in the error, e.g. `sleep`
 * @throws IllegalStateError outside workflow code (e.g. in an activity or a test calling it directly)
 */
export function currentActivator(api: string): Activator {
  const activator = maybeActivator();
  if (activator === undefined) {
    throw new IllegalStateError(
      `${api}() can only be called from workflow code running in a Logbook worker (it was called outside a workflow run)`,
    );
  }
  return activator;
}
