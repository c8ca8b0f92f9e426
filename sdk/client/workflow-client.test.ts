import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startTestEngine, type TestEngine } from '../../test/support/test-engine.js';
import { InvalidArgumentError, WorkflowClient, WorkflowClientError } from './workflow-client.js';
import { addressOf, serveGateway } from '../../test/support/http-gateway.js';

const POLLER_WORKFLOWS = fileURLToPath(new URL('../../test/workflows/continue-as-new.ts', import.meta.url));

let t: TestEngine;
let server: Server;
let client: WorkflowClient;
before(async () => {
  t = await startTestEngine('embedded', { extraWorkers: [{ taskQueue: 'pollers', workflowsPath: POLLER_WORKFLOWS }] });
  server = await serveGateway(t.engine);
  client = new WorkflowClient({ address: addressOf(server) });
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

test('a handle follows continue-as-new to the last run; without followRuns it sees ContinuedAsNew; the old run still describes and lists its history', async () => {
  const state = { done: 0, total: 12, perRun: 5, pauseEvery: 2, heedSuggestion: false, runs: 0 };
  const handle = await client.start('poller', { workflowId: 'client-poller', taskQueue: 'pollers', args: [state] });
  const outcome = await handle.result<{ done: number; runs: number; firstExecutionRunId: string }>('30s');
  assert.equal(outcome.status, 'Completed');
  assert.deepEqual(outcome.result, { done: 12, runs: 3, firstExecutionRunId: handle.runId });
  assert.notEqual(outcome.runId, handle.runId);

  const own = await handle.result('30s', { followRuns: false });
  assert.deepEqual([own.status, own.runId], ['ContinuedAsNew', handle.runId]);
  assert.ok(own.newExecutionRunId);
  const old = (await handle.describe()) as { executionInfo: { status: string; runId: string }; newExecutionRunId: string };
  assert.deepEqual([old.executionInfo.status, old.executionInfo.runId, old.newExecutionRunId], ['ContinuedAsNew', handle.runId, own.newExecutionRunId]);
  const history = await handle.fetchHistory();
  assert.equal(history.at(-1)?.attributes.type, 'WorkflowExecutionContinuedAsNew');
  assert.equal(history.at(-1)?.attributes.newExecutionRunId, own.newExecutionRunId);

  const current = (await client.getHandle('client-poller').describe()) as { executionInfo: { runId: string; firstExecutionRunId: string; status: string } };
  assert.deepEqual([current.executionInfo.runId, current.executionInfo.firstExecutionRunId, current.executionInfo.status], [outcome.runId, handle.runId, 'Completed']);
});

test('a result wait that runs out answers the run\'s status Running; the client waits past one call’s long poll in several calls, and times out only at its own timeout', async () => {
  const short = new WorkflowClient({ address: addressOf(server), longPollMs: 200 });
  const handle = await short.start('order', { workflowId: 'long-poll-order', taskQueue: 'orders', args: [order('long-poll-order')] });
  // Over HTTP a wait that runs out is no error: the answer says the run is still running.
  const raw = await fetch(`${addressOf(server)}/api/v1/namespaces/default/workflows/long-poll-order/result?timeout=200ms`);
  assert.equal(raw.status, 200);
  assert.deepEqual(await raw.json(), { workflowId: 'long-poll-order', runId: handle.runId, status: 'Running', result: null, failure: null, newExecutionRunId: null });
  const began = Date.now();
  await assert.rejects(handle.result('700ms'), (error: unknown) => error instanceof WorkflowClientError && error.code === 'REPLY_TIMEOUT');
  assert.ok(Date.now() - began >= 700, `timed out after ${Date.now() - began} ms, not at the first 200 ms call`);
  const outcome = handle.result<{ shipmentId: string }>('30s');
  await new Promise((r) => setTimeout(r, 500));
  await handle.signal('sellerPacked', { parcelId: 'p-7' });
  assert.equal((await outcome).result?.shipmentId, 'shipment-long-poll-order-p-7');
});

test('the HTTP client refuses, before sending, a wait over 1 h and names that break their rule', async () => {
  const handle = client.getHandle('client-order');
  await assert.rejects(handle.result('2h'), (error: unknown) => error instanceof InvalidArgumentError && /^timeout: "2h" is 7200000 ms; a request waits at most 1h/.test(error.message));
  await assert.rejects(handle.signal('go\n'), (error: unknown) => error instanceof InvalidArgumentError && /^signalName .* control character U\+000A/.test(error.message));
  await assert.rejects(handle.executeUpdate('add', { timeout: '1d' }), InvalidArgumentError);
  await assert.rejects(client.start('order', { workflowId: 'w', taskQueue: 'orders', workflowExecutionTimeout: '1000000000d' }), /workflowExecutionTimeout: "1000000000d" is 86400000000000000 ms/);
  assert.throws(() => client.getHandle(''), { name: 'InvalidArgumentError', message: 'workflowId must be a non-empty string' });
});
