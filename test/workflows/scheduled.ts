/**
 * The workflow the schedule tests start: it returns its label at once, or stays open until
 * signalled `finish` (to test the overlap policies).
 * @module
 */
import { condition, defineSignal, setHandler } from '../../sdk/workflow/index.js';

/** Lets a held-open run return. */
export const finish = defineSignal('finish');

/** Returns `label`; with `holdOpen`, only after the `finish` signal. */
export async function scheduledTask(label: string, holdOpen: boolean): Promise<string> {
  let finished = false;
  setHandler(finish, () => void (finished = true));
  if (holdOpen) await condition(() => finished);
  return label;
}
