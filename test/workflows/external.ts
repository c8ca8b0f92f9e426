/**
 * Workflows that signal and cancel each other through external workflow handles, for the
 * external-signals conformance tests.
 * @module
 */
import { ApplicationFailure, condition, defineSignal, getExternalWorkflowHandle, setHandler } from '../../sdk/workflow/index.js';

/** The signal a {@link sender} sends. */
export const go = defineSignal<[value: number]>('go');

/** Waits for `go` and returns its value; a cancellation request propagates (the run ends Canceled). */
export async function receiver(): Promise<number> {
  let value: number | undefined;
  setHandler(go, (v) => void (value = v));
  await condition(() => value !== undefined);
  return value!;
}

/** Signals `go(value)` to `target`; returns 'sent', or the failure's type when the signal could not be delivered. */
export async function sender(target: string, value: number): Promise<string> {
  try {
    await getExternalWorkflowHandle(target).signal(go, value);
    return 'sent';
  } catch (err) {
    return `failed: ${err instanceof ApplicationFailure ? err.type : String(err)}`;
  }
}

/** Asks `target` to cancel; returns once the target recorded the request. */
export async function canceller(target: string): Promise<string> {
  await getExternalWorkflowHandle(target).cancel();
  return 'cancel requested';
}
