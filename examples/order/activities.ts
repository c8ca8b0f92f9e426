import { ApplicationFailure } from 'logbook/common';
import { activityInfo, log } from 'logbook/activity';

/**
 * Example activities of the order workflow. They stand in for calls to an inventory, payment,
 * shipping and SMS service; each passes the idempotency key the engine gives it, as real calls must.
 * A SKU starting with `out-of-stock` and an amount of 0 fail for good, to show compensation.
 */
export async function reserveStock(orderId: string, sku: string, quantity: number): Promise<string> {
  if (sku.startsWith('out-of-stock')) throw ApplicationFailure.nonRetryable(`${sku} is out of stock`, 'OutOfStock');
  // The activity's logger adds the run's ids (workflowId, runId, activityType, attempt) to the line.
  log.info(`reserving ${quantity} × ${sku}`, { orderId });
  return `reservation-${orderId}-${quantity}-${activityInfo().idempotencyKey}`;
}

export async function chargeCard(orderId: string, amountCents: number): Promise<string> {
  if (amountCents <= 0) throw ApplicationFailure.nonRetryable(`card declined for order ${orderId}`, 'CardDeclined');
  return `payment-${orderId}`;
}

export async function createShipment(orderId: string, parcelId: string): Promise<string> {
  return `shipment-${orderId}-${parcelId}`;
}

export async function sendRatingSms(phone: string, orderId: string): Promise<void> {
  void phone;
  void orderId;
}

export async function refundPayment(orderId: string, amountCents: number): Promise<string> {
  return `refund-${orderId}-${amountCents}`;
}

export async function releaseStock(orderId: string, sku: string, quantity: number): Promise<string> {
  return `released-${orderId}-${sku}-${quantity}`;
}
