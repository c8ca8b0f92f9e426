/**
 * The quick start's order, from TypeScript with Temporal's client API: starts an order on a running
 * dev server (`npm start`), asks where it stands, sends the seller's signal and prints the result.
 * LOGBOOK_ADDRESS names the gateway (default 127.0.0.1:8233).
 * Run: `npx tsx examples/order/client.ts [orderId]`.
 */
import { Client, Connection } from 'logbook/client';
import { order, orderStatus, sellerPacked } from './workflows.js';

const orderId = process.argv[2] ?? `ts-${Date.now()}`;
const connection = await Connection.connect({ address: process.env.LOGBOOK_ADDRESS ?? '127.0.0.1:8233' });
const client = new Client({ connection });
const handle = await client.workflow.start(order, {
  workflowId: `order-${orderId}`,
  taskQueue: 'orders',
  args: [{ orderId, sku: 'book', quantity: 1, amountCents: 2500, phone: '+100', packTimeout: '1h', ratingDelay: '1s' }],
});
console.log(`started ${handle.workflowId}`);
// The order waits for the seller once the card is charged: ask until it says so.
for (let stage = ''; stage !== 'waiting for the seller'; await new Promise((r) => setTimeout(r, 200))) {
  stage = (await handle.query(orderStatus)).stage;
}
console.log('stage: waiting for the seller');
await handle.signal(sellerPacked, { parcelId: 'p-1' });
const result = await handle.result();
console.log(`result: ${result.status}, shipment ${result.shipmentId}`);
