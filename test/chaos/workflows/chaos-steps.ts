import { condition, defineSignal, proxyActivities, setHandler, sleep } from '../../../sdk/workflow/index.js';
import type * as activities from '../../bench/workflows/activities.js';

const { step } = proxyActivities<typeof activities>({ startToCloseTimeout: '30s' });

/** The signal the fault harness sends each chaos workflow once it has been started. */
export const proceed = defineSignal<[token: string]>('proceed');

/**
 * The fault harness's workflow: an activity, a durable timer, a second activity, a wait for the
 * harness's signal, and a third activity. Every activity is the bench `step`, which appends each
 * execution to the execution log (`BENCH_ACTIVITY_LOG`), so the harness can prove that no completed
 * activity ran again. The handler is registered first, so a signal that arrives before the wait
 * (during the timer, say) is kept. Returns `payload` unchanged: any other result is a defect.
 */
export async function chaosSteps(payload: string, timerMs: number): Promise<string> {
  let signalled = false;
  setHandler(proceed, (_token) => {
    signalled = true;
  });
  const first = await step(payload);
  await sleep(timerMs);
  const second = await step(first);
  await condition(() => signalled);
  return step(second);
}
