import { proxyLocalActivities, sleep } from '../../workflow/index.js';

const { lookup } = proxyLocalActivities<{ lookup(key: string): Promise<string> }>({ startToCloseTimeout: '1s', retry: { maximumAttempts: 5 } });

/** Two local activities in a row (the second uses the first's result), then a timer. */
export async function lookupTwice(key: string): Promise<string> {
  const first = await lookup(key);
  const second = await lookup(`${first}!`);
  await sleep('1s');
  return second;
}
