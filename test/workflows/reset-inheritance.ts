/**
 * Workflows for the reset tests of runs that used children or updates before the reset point: a
 * parent waiting for its child (the children conformance workflows), and an approval whose update
 * handler waits for a confirmation signal, so that the update is still in flight at a later task.
 * @module
 */
import { condition, defineSignal, defineUpdate, setHandler, startChild } from '../../sdk/workflow/index.js';
import { release, waitForRelease } from './children.js';

export { parentWaitsForChild, release, waitForRelease } from './children.js';

/** Tells a {@link parentReleasesChild} to release its child. */
export const forward = defineSignal('forward');

/** Starts a {@link waitForRelease} child, releases it through the child handle when `forward` arrives, and returns its result. */
export async function parentReleasesChild(childId: string): Promise<string> {
  let forwarded = false;
  setHandler(forward, () => void (forwarded = true));
  const child = await startChild(waitForRelease, { workflowId: childId });
  await condition(() => forwarded);
  await child.signal(release);
  return child.result();
}

/** Approves a document once `confirm` arrives; answers `approved <name>`. */
export const approve = defineUpdate<string, [name: string]>('approve');
/** Lets the pending `approve` handler finish. */
export const confirm = defineSignal('confirm');
/** Only gives the run another workflow task (a later reset point). */
export const poke = defineSignal('poke');

/** Waits until a document is approved; returns it and how many pokes it saw. */
export async function approval(): Promise<string> {
  let confirmed = false;
  let pokes = 0;
  let approved: string | null = null;
  setHandler(confirm, () => void (confirmed = true));
  setHandler(poke, () => void pokes++);
  setHandler(approve, async (name) => {
    await condition(() => confirmed);
    approved = name;
    return `approved ${name}`;
  });
  await condition(() => approved !== null);
  return `${approved} after ${pokes} poke(s)`;
}
