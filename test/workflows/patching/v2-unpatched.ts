import { condition, defineSignal, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB, audit } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** A bad deploy: an audit step added after step A without `patched`, so waiting runs cannot replay. */
export async function audited(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const a = await stepA();
  const checked = await audit();
  await condition(() => released);
  return `${a}+${checked}+${await stepB()}`;
}
