/**
 * Workflows started by ingress mappings in the ingress tests.
 * @module
 */
import { condition, defineSignal, setHandler } from '../../sdk/workflow/index.js';

/** One order as the business topic carries it. */
export interface IngressOrder {
  readonly orderId: string;
  readonly amountCents: number;
}

/** Payment news for an order, delivered as a signal. */
export const paid = defineSignal<[payment: unknown]>('paid');

/** Accepts an order at once: returns what it was started with. */
export async function acceptOrder(order: IngressOrder): Promise<IngressOrder> {
  return order;
}

/** Waits for the `paid` signal and returns the order with every payment it received. */
export async function awaitPayment(order: IngressOrder | null): Promise<{ order: IngressOrder | null; payments: unknown[] }> {
  const payments: unknown[] = [];
  setHandler(paid, (payment) => void payments.push(payment));
  await condition(() => payments.length > 0);
  return { order, payments };
}
