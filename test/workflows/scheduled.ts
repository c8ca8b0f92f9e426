/**
 * The workflows the schedule tests start: one returns its label at once, or stays open until
 * signalled `finish` (to test the overlap policies); the other does so after continuing as new.
 * @module
 */
import { condition, continueAsNew, defineSignal, setHandler } from '../../sdk/workflow/index.js';

/** Lets a held-open run return. */
export const finish = defineSignal('finish');

/** Returns `label`; with `holdOpen`, only after the `finish` signal. */
export async function scheduledTask(label: string, holdOpen: boolean): Promise<string> {
  let finished = false;
  setHandler(finish, () => void (finished = true));
  if (holdOpen) await condition(() => finished);
  return label;
}

/** Continues as new once, then stays open until the `finish` signal and returns `label`. */
export async function scheduledChain(label: string, continued = false): Promise<string> {
  if (!continued) await continueAsNew<typeof scheduledChain>(label, true);
  let finished = false;
  setHandler(finish, () => void (finished = true));
  await condition(() => finished);
  return label;
}
