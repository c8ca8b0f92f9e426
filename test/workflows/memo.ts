/**
 * A workflow that reads the memo it was started with, for the memo conformance tests.
 * @module
 */
import { condition, defineSignal, setHandler, workflowInfo } from '../../sdk/workflow/index.js';

/** Released by its first signal (so signal-with-start can start it). */
export const release = defineSignal<[note: string]>('release');

/** Returns its memo as `workflowInfo()` shows it; with `waitForSignal`, after the first `release` signal, with the note. */
export async function memoEcho(waitForSignal: boolean): Promise<{ memo: Record<string, unknown>; note?: string }> {
  let note: string | undefined;
  setHandler(release, (n) => void (note = n));
  if (waitForSignal) await condition(() => note !== undefined);
  return note === undefined ? { memo: workflowInfo().memo } : { memo: workflowInfo().memo, note };
}
