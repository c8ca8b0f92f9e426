import { condition, defineSignal, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** The original deployment: step A, wait for `go`, step B. */
export async function audited(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const a = await stepA();
  await condition(() => released);
  return `${a}+${await stepB()}`;
}
