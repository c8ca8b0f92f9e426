import { condition, defineSignal, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** A bad deploy: the same workflow type with its activities reordered. */
export async function twoSteps(): Promise<string> {
  let released = false;
  setHandler(go, () => {
    released = true;
  });
  const b = await stepB();
  await condition(() => released);
  const a = await stepA();
  return `${a}+${b}`;
}
