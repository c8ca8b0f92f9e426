import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { OrderResult } from '../../examples/order/workflows.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const COUNT = 500;
let t: TestEngine;
before(async () => {
  t = await startTestEngine('kafka', { shards: 8 });
});
after(async () => t.stop());

/** Every event id once, in order; every scheduled activity completed exactly once; closed as completed. */
function assertWellFormed(id: string, events: HistoryEvent[]): void {
  events.forEach((e, i) => assert.equal(e.eventId, i + 1, `${id}: event ${i + 1} is in place`));
  const scheduled = events.filter((e) => e.attributes.type === 'ActivityTaskScheduled').map((e) => e.eventId);
  const completed = events.flatMap((e) => (e.attributes.type === 'ActivityTaskCompleted' ? [e.attributes.scheduledEventId] : []));
  assert.deepEqual([...completed].sort((a, b) => a - b), scheduled, `${id}: each activity completed exactly once`);
  assert.equal(scheduled.length, 4, `${id}: four activities`);
  assert.equal(events.filter((e) => e.attributes.type === 'WorkflowExecutionSignaled').length, 1, `${id}: one signal`);
  assert.equal(events.at(-1)?.attributes.type, 'WorkflowExecutionCompleted', `${id}: completed`);
}

test(`${COUNT} order workflows started at once all complete with the right result and a well-formed history`, async () => {
  const ids = Array.from({ length: COUNT }, (_, i) => uniqueName(`bulk-${i}`));
  const started = Date.now();
  const runs = await Promise.all(
    ids.map((id) => t.start('order', 'orders', id, [{ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '1s' }])),
  );
  await Promise.all(ids.map((id) => t.signal(id, 'sellerPacked', [{ parcelId: `p-${id}` }])));
  const results = await Promise.all(ids.map((id) => t.result(id, 240_000)));
  const seconds = (Date.now() - started) / 1000;
  console.log(`${COUNT} order workflows completed in ${seconds.toFixed(1)} s (${(COUNT / seconds).toFixed(1)} workflows/s)`);
  results.forEach((reply, i) => assert.deepEqual(resultOf<OrderResult>(t.engine, reply), { orderId: ids[i], status: 'shipped', shipmentId: `shipment-${ids[i]}-p-${ids[i]}`, compensated: [] }));
  for (let i = 0; i < COUNT; i++) {
    const history = await waitFor(`the closed history of ${ids[i]}`, async () => {
      const events = await t.history(ids[i]!, runs[i]!);
      return events.at(-1)?.attributes.type === 'WorkflowExecutionCompleted' ? events : undefined;
    });
    assertWellFormed(ids[i]!, history);
  }
});
