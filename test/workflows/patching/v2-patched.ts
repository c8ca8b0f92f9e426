import { condition, defineSignal, patched, proxyActivities, setHandler } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { stepA, stepB, audit } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });
export const go = defineSignal('go');

/** The fix: the audit step behind `patched('add-audit')`, so runs started on v1 keep the old path. */
export async function audited(): Promise<string> {
  let released = false;
  setHandler(go, () => void (released = true));
  const a = await stepA();
  const checked = patched('add-audit') ? await audit() : null;
  await condition(() => released);
  const b = await stepB();
  return checked === null ? `${a}+${b}` : `${a}+${checked}+${b}`;
}
