import { condition, defineSignal, setHandler } from '../../../sdk/workflow/index.js';

/** The W3 signal; its argument is the sender's sequence number, so history tells signals apart. */
export const ping = defineSignal<[sequence: number]>('ping');

/** Benchmark W3: waits for `expected` signals, then completes with how many it received. */
export async function awaitSignals(expected: number): Promise<number> {
  let received = 0;
  setHandler(ping, (_sequence) => {
    received++;
  });
  await condition(() => received >= expected);
  return received;
}
