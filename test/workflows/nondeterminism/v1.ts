import { condition, defineSignal, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** Runs step A, waits for `go`, runs step B. The original deployment. */
export async function twoSteps(): Promise<string> {
  let released = false;
  setHandler(go, () => {
    released = true;
  });
  const a = await stepA();
  await condition(() => released);
  const b = await stepB();
  return `${a}+${b}`;
}
