import { ActivityFailure, ApplicationFailure, condition, defineSignal, proxyLocalActivities, setHandler, TimeoutFailure } from '../../sdk/workflow/index.js';

/** The local activities of these workflows (implemented by the conformance test, which counts calls). */
export interface LocalActivities {
  lookupPrice(sku: string): Promise<number>;
  flaky(label: string): Promise<string>;
  reject(reason: string): Promise<string>;
  slow(ms: number): Promise<string>;
  overBudget(ms: number): Promise<string>;
}

export const go = defineSignal('go');

const { lookupPrice } = proxyLocalActivities<LocalActivities>({ startToCloseTimeout: '5s', retry: { initialInterval: 50, maximumAttempts: 5 } });
// A backoff longer than the workflow task's local-activity budget: the retry waits on a durable timer.
const { flaky } = proxyLocalActivities<LocalActivities>({ startToCloseTimeout: '5s', retry: { initialInterval: '2s', maximumAttempts: 3 } });
const { reject } = proxyLocalActivities<LocalActivities>({ startToCloseTimeout: '5s', retry: { initialInterval: 50 } });
const { slow } = proxyLocalActivities<LocalActivities>({ startToCloseTimeout: 200, retry: { initialInterval: 50, maximumAttempts: 2 } });
// A start-to-close timeout longer than the workflow task's budget: each attempt is cut at the budget.
const { overBudget } = proxyLocalActivities<LocalActivities>({ startToCloseTimeout: '30s', retry: { initialInterval: 50, maximumAttempts: 2 } });

/** Looks a price up locally (it fails twice first), waits for `go`, returns the price. */
export async function localPrice(sku: string): Promise<number> {
  let released = false;
  setHandler(go, () => void (released = true));
  const price = await lookupPrice(sku);
  await condition(() => released);
  return price;
}

/** A local activity whose first attempt fails and whose retry comes after a timer. */
export async function localBackoff(label: string): Promise<string> {
  return flaky(label);
}

/** How a failed local activity surfaces: its cause's type and the retry state, for a non-retryable failure and a timeout. */
export async function localFailures(): Promise<string[]> {
  const outcomes: string[] = [];
  for (const run of [() => reject('bad input'), () => slow(2_000)]) {
    try {
      outcomes.push(`completed ${await run()}`);
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      const cause = err.cause instanceof ApplicationFailure ? err.cause.type : err.cause instanceof TimeoutFailure ? 'TimeoutFailure' : String(err.cause);
      outcomes.push(`${cause} ${err.retryState}`);
    }
  }
  return outcomes;
}

/** A local activity that outlives the workflow task's budget twice: how the workflow sees it. */
export async function localOverBudget(): Promise<string> {
  try {
    return await overBudget(5_000);
  } catch (err) {
    return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure ? `TimeoutFailure ${err.retryState}` : String(err);
  }
}
