import { condition, defineSignal, deprecatePatch, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB, audit } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** Once no v1 run is open: the audit step unconditionally, the patch deprecated. */
export async function audited(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const a = await stepA();
  deprecatePatch('add-audit');
  const checked = await audit();
  await condition(() => released);
  return `${a}+${checked}+${await stepB()}`;
}
