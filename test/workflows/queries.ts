/**
 * A workflow whose state is read through queries, with handlers that break the rules on purpose
 * (used by the replay tests and the end-to-end query tests on both backends).
 * @module
 */
import { condition, defineQuery, defineSignal, setHandler, sleep, uuid4 } from '../../sdk/workflow/index.js';

export const addItem = defineSignal<[item: string]>('addItem');
export const checkout = defineSignal('checkout');
export const statusQuery = defineQuery<{ stage: string; items: string[] }>('status');
export const itemQuery = defineQuery<string | null, [index: number]>('item');
/** Breaks the rules: async. */
export const asyncQuery = defineQuery<Promise<number>>('asyncCount');
/** Breaks the rules: starts a timer, and swallows the refusal. */
export const sleepingQuery = defineQuery<string>('sleepy');
/** Breaks the rules: draws a random number. */
export const randomQuery = defineQuery<number>('lucky');
export const failingQuery = defineQuery<never>('private');
export const loopingQuery = defineQuery<never>('forever');

/** What {@link basket} returns: the items, and a ticket drawn from the run's PRNG at checkout. */
export interface BasketResult {
  owner: string;
  items: string[];
  ticket: string;
}

/** Collects items from signals until checkout; its state is readable through queries all along. */
export async function basket(owner: string): Promise<BasketResult> {
  const items: string[] = [];
  let stage = 'collecting';
  let checkedOut = false;
  setHandler(addItem, (item) => void items.push(item));
  setHandler(checkout, () => void (checkedOut = true));
  setHandler(statusQuery, () => ({ stage, items: [...items] }));
  setHandler(itemQuery, (index) => items[index] ?? null);
  setHandler(asyncQuery, async () => items.length);
  setHandler(sleepingQuery, () => {
    try {
      void sleep('1h');
    } catch {
      // Swallowed on purpose: the query must fail anyway.
    }
    return 'rested';
  });
  setHandler(randomQuery, () => Math.random());
  setHandler(failingQuery, () => {
    throw new Error(`the basket of ${owner} is private`);
  });
  setHandler(loopingQuery, () => {
    for (;;) {
      // spins until the deadlock detector stops it
    }
  });
  await condition(() => checkedOut);
  stage = 'checked out';
  return { owner, items, ticket: uuid4() };
}
