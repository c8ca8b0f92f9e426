import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { startTestEngine, type TestEngine } from '../../test/support/test-engine.js';
import { WorkflowClient, WorkflowClientError } from './workflow-client.js';

let t: TestEngine;
let server: Server;
let client: WorkflowClient;
before(async () => {
  t = await startTestEngine('embedded');
  server = createServer(createHttpApp({ engine: t.engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'self' }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = new WorkflowClient({ address: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
});
after(async () => {
  server.close();
  await t.stop();
});

const order = (id: string) => ({ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' });

test('the HTTP client starts a workflow, signals it, describes it, reads its history and awaits its result', async () => {
  const handle = await client.start('order', { workflowId: 'client-order', taskQueue: 'orders', args: [order('client-order')] });
  assert.ok(handle.runId);
  await handle.signal('sellerPacked', { parcelId: 'p-9' });
  const outcome = await handle.result<{ status: string; shipmentId: string }>('30s');
  assert.equal(outcome.status, 'Completed');
  assert.equal(outcome.result?.shipmentId, 'shipment-client-order-p-9');
  const state = (await handle.describe()) as { executionInfo: { status: string } };
  assert.equal(state.executionInfo.status, 'Completed');
  const history = await handle.fetchHistory();
  assert.equal(history[0]?.attributes.type, 'WorkflowExecutionStarted');
  assert.equal(history.at(-1)?.attributes.type, 'WorkflowExecutionCompleted');
});

test('signalWithStart starts the workflow and delivers the signal in one call; a second one only signals', async () => {
  const first = await client.signalWithStart('order', { workflowId: 'sws-order', taskQueue: 'orders', args: [order('sws-order')], signal: 'sellerPacked', signalArgs: [{ parcelId: 'p-1' }] });
  const again = await client.signalWithStart('order', { workflowId: 'sws-order', taskQueue: 'orders', args: [order('sws-order')], signal: 'sellerPacked', signalArgs: [{ parcelId: 'p-2' }] });
  assert.equal(again.runId, first.runId);
  const outcome = await first.result<{ shipmentId: string }>('30s');
  // Both signals reached the run; the order keeps the last parcel it was told about.
  assert.equal(outcome.result?.shipmentId, 'shipment-sws-order-p-2');
  const signals = (await first.fetchHistory()).filter((e) => e.attributes.type === 'WorkflowExecutionSignaled');
  assert.equal(signals.length, 2);
});

test('terminate closes a waiting run at once, and calls about unknown workflows fail with the engine code', async () => {
  const handle = await client.start('order', { workflowId: 'terminated-order', taskQueue: 'orders', args: [order('terminated-order')] });
  await handle.terminate('changed my mind');
  assert.equal((await handle.result('30s')).status, 'Terminated');
  await assert.rejects(client.getHandle('nobody').signal('x'), (error: unknown) => error instanceof WorkflowClientError && error.status === 404 && error.code === 'WorkflowNotFound');
  await assert.rejects(client.start('order', { workflowId: 'terminated-order', taskQueue: 'orders', workflowIdReusePolicy: 'RejectDuplicate' }), (error: unknown) => error instanceof WorkflowClientError && error.status === 409);
});
