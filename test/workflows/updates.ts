/**
 * A shopping cart changed through updates (used by the update conformance tests on both
 * backends): `addItem` has a validator and a handler that can fail, `checkout` runs an activity,
 * and the `close` signal ends the run with the items it holds.
 * @module
 */
import { ApplicationFailure, condition, defineSignal, defineUpdate, proxyActivities, setHandler, uuid4 } from '../../sdk/workflow/index.js';
import type * as activities from './update-activities.js';

export const addItem = defineUpdate<number, [item: string]>('addItem');
export const checkout = defineUpdate<number, [coupon: string]>('checkout');
export const close = defineSignal('close');
/** Its validator breaks the rules (draws a random number), so it is always rejected. */
export const sneaky = defineUpdate<string>('sneaky');
/** Answers with its argument, whatever its size. */
export const echo = defineUpdate<string, [text: string]>('echo');

const { priceWithCoupon } = proxyActivities<typeof activities>({ startToCloseTimeout: '10s' });

/** Holds items until closed; returns them. */
export async function cart(): Promise<string[]> {
  const items: string[] = [];
  let closed = false;
  setHandler(
    addItem,
    (item) => {
      if (item === 'out-of-stock') throw ApplicationFailure.nonRetryable(`no ${item} left`, 'OutOfStock');
      items.push(item);
      return items.length;
    },
    {
      validator: (item) => {
        if (item === '') throw new Error('an item needs a name');
      },
    },
  );
  setHandler(checkout, async (coupon) => priceWithCoupon(items.length, coupon));
  setHandler(close, () => void (closed = true));
  setHandler(echo, (text) => text);
  setHandler(sneaky, () => uuid4(), {
    validator: () => {
      uuid4();
    },
  });
  await condition(() => closed);
  return items;
}
