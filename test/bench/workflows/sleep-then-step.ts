import { proxyActivities, sleep } from '../../../sdk/workflow/index.js';
import type * as activities from './activities.js';

const { wallClock } = proxyActivities<typeof activities>({ startToCloseTimeout: '30s' });

/**
 * Benchmark W2: one durable timer, then one activity. The delay is chosen by the load generator
 * (workflow code stays deterministic); the result is the worker's wall clock when the activity
 * after the timer ran, so the benchmark can tell how late the continuation was.
 */
export async function sleepThenStep(delayMs: number): Promise<number> {
  await sleep(delayMs);
  return wallClock();
}
