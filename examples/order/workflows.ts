import { ApplicationFailure, condition, defineQuery, defineSignal, proxyActivities, setHandler, sleep } from 'logbook/workflow';
import type * as activities from './activities.js';

/** An order as the shop submits it. */
export interface Order {
  readonly orderId: string;
  readonly sku: string;
  readonly quantity: number;
  readonly amountCents: number;
  readonly phone: string;
  /** How long to wait for the seller; default 48 h. Shorten it in tests and demos. */
  readonly packTimeout?: string | number;
  /** How long after shipping to ask for a rating; default 7 days. */
  readonly ratingDelay?: string | number;
}

/** What the order workflow returns. */
export interface OrderResult {
  readonly orderId: string;
  readonly status: 'shipped' | 'cancelled';
  readonly shipmentId?: string;
  readonly compensated: string[];
}

/** The seller reports the parcel is packed. */
export const sellerPacked = defineSignal<[{ parcelId: string }]>('sellerPacked');

/** Where the order stands, for the shop's order page (a query: nothing is written to history). */
export const orderStatus = defineQuery<{ stage: string; parcelId: string | null }>('status');

const { reserveStock, chargeCard, createShipment, sendRatingSms, refundPayment, releaseStock } = proxyActivities<typeof activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['OutOfStock', 'CardDeclined'] },
});

/**
 * The order workflow of the design seeds: reserve stock, charge the card, wait up to 48 h for the
 * seller, ship, sleep 7 days, ask for a rating. If a step fails for good, the finished steps are
 * compensated in reverse order (refund, then release the stock).
 */
export async function order(input: Order): Promise<OrderResult> {
  const compensations: Array<{ name: string; run: () => Promise<unknown> }> = [];
  let parcelId: string | undefined;
  let stage = 'reserving stock';
  setHandler(sellerPacked, (packed) => {
    parcelId = packed.parcelId;
  });
  setHandler(orderStatus, () => ({ stage, parcelId: parcelId ?? null }));
  try {
    await reserveStock(input.orderId, input.sku, input.quantity);
    compensations.unshift({ name: 'releaseStock', run: () => releaseStock(input.orderId, input.sku, input.quantity) });
    stage = 'charging';
    await chargeCard(input.orderId, input.amountCents);
    compensations.unshift({ name: 'refundPayment', run: () => refundPayment(input.orderId, input.amountCents) });
    stage = 'waiting for the seller';
    const packed = await condition(() => parcelId !== undefined, input.packTimeout ?? '48h');
    if (!packed) throw ApplicationFailure.nonRetryable(`seller did not pack order ${input.orderId} in time`, 'SellerTimeout');
    stage = 'shipping';
    const shipmentId = await createShipment(input.orderId, parcelId!);
    stage = 'waiting to ask for a rating';
    await sleep(input.ratingDelay ?? '7d');
    await sendRatingSms(input.phone, input.orderId);
    stage = 'shipped';
    return { orderId: input.orderId, status: 'shipped', shipmentId, compensated: [] };
  } catch (error) {
    stage = 'compensating';
    const compensated: string[] = [];
    for (const step of compensations) {
      await step.run();
      compensated.push(step.name);
    }
    stage = 'cancelled';
    if (compensated.length === 0) throw error;
    return { orderId: input.orderId, status: 'cancelled', compensated };
  }
}
