import { condition, defineSignal, defineUpdate, proxyLocalActivities, setHandler, sleep } from '../../workflow/index.js';

const { lookup } = proxyLocalActivities<{ lookup(key: string): Promise<string> }>({ startToCloseTimeout: '1s', retry: { maximumAttempts: 5 } });

/** Two local activities in a row (the second uses the first's result), then a timer. */
export async function lookupTwice(key: string): Promise<string> {
  const first = await lookup(key);
  const second = await lookup(`${first}!`);
  await sleep('1s');
  return second;
}

/** An update handler that runs a local activity; the run closes on the `done` signal. */
export const addLookedUp = defineUpdate<string, [string]>('addLookedUp');
export const doneAdding = defineSignal('doneAdding');

export async function cartWithLookups(): Promise<string[]> {
  const items: string[] = [];
  let closed = false;
  setHandler(addLookedUp, async (key: string) => {
    const value = await lookup(key);
    items.push(value);
    return value;
  });
  setHandler(doneAdding, () => void (closed = true));
  await condition(() => closed);
  return items;
}
