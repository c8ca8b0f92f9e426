/**
 * Workflows of the namespace conformance tests: one that closes at once (retention) and one that
 * starts many activities together (dispatch rate limits).
 * @module
 */
import { continueAsNew, proxyActivities } from '../../sdk/workflow/index.js';

/** Activities the tests register: `tick` records when it started. */
export interface NamespaceTestActivities {
  tick(index: number): Promise<number>;
}

const { tick } = proxyActivities<NamespaceTestActivities>({ startToCloseTimeout: '1m' });

/** Completes at once with its argument. */
export async function quick(value: string): Promise<string> {
  return value;
}

/** Starts `count` activities at once and waits for all of them. */
export async function fanOut(count: number): Promise<number> {
  const done = await Promise.all(Array.from({ length: count }, (_, i) => tick(i)));
  return done.length;
}

/** Continues as new `runs - 1` times, then completes: a chain of `runs` runs under one workflow id. */
export async function chain(runs: number): Promise<number> {
  if (runs > 1) return continueAsNew<typeof chain>(runs - 1);
  return runs;
}
