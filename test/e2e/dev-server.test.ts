import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killNoEngineProcesses, startNoEngineProcess } from '../support/no-engine-process.js';
import { assertHelloWorldRuns } from '../support/hello-world-processes.js';
import { waitFor } from '../support/test-env.js';
import { startDevServer } from '../support/logbook-cli.js';

const CLIENT = 'examples/order/client.ts';

test("the README's run command starts the dev server, and its curl lines and its TypeScript client start an order, query it, signal it and show its history", async () => {
  const server = await startDevServer();
  const port = server.port;
  const api = `http://127.0.0.1:${port}/api/v1/namespaces/default/workflows`;
  try {
    const json = { 'content-type': 'application/json' };
    const start = await fetch(api, { method: 'POST', headers: json, body: JSON.stringify({ workflowId: 'order-1', workflowType: 'order', taskQueue: 'orders', args: [{ orderId: '1', sku: 'book', quantity: 1, amountCents: 2500, phone: '+100', packTimeout: '1h', ratingDelay: '1s' }] }) });
    assert.equal(start.status, 201, await start.clone().text());
    await waitFor('the order to wait for the seller', async () => JSON.stringify(await (await fetch(`${api}/order-1/history`)).json()).includes('TimerStarted'), 30_000);
    const query = await fetch(`${api}/order-1/query/status`, { method: 'POST' });
    assert.equal(query.status, 200, await query.clone().text());
    assert.deepEqual(await query.json(), { workflowId: 'order-1', queryName: 'status', result: { stage: 'waiting for the seller', parcelId: null } });
    const signal = await fetch(`${api}/order-1/signals/sellerPacked`, { method: 'POST', headers: json, body: JSON.stringify({ args: [{ parcelId: 'p-1' }] }) });
    assert.equal(signal.status, 202, await signal.clone().text());
    const result = (await (await fetch(`${api}/order-1/result?timeout=30s`)).json()) as { status: string; result: { status: string } };
    assert.equal(result.status, 'Completed');
    assert.equal(result.result.status, 'shipped');
    const history = (await (await fetch(`${api}/order-1/history`)).json()) as { events: Array<{ attributes: { type: string } }> };
    assert.ok(history.events.some((e) => e.attributes.type === 'WorkflowExecutionSignaled'));
    const missing = await fetch(`${api}/no-such-workflow/signals/x`, { method: 'POST', headers: json, body: '{}' });
    assert.equal(missing.status, 404, 'signalling an unknown workflow is a 404 with a message');
    const bad = await fetch(api, { method: 'POST', headers: json, body: JSON.stringify({ workflowId: 'x' }) });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /workflowType/);
    assert.match(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(), /logbook_workflow_completions_total\{namespace="default",workflow_type="order",status="Completed"\} 1/);
    // The README's TypeScript client, a process of its own with no engine code in it.
    const client = await startNoEngineProcess([CLIENT], { LOGBOOK_ADDRESS: `127.0.0.1:${port}` }, null);
    assert.equal(await client.exited, 0, client.output.join(''));
    assert.match(client.output.join(''), /^started order-ts-\d+\nstage: waiting for the seller\nresult: shipped, shipment \S+\n$/);
  } finally {
    await server.stop();
  }
});

test("the README's hello-world worker and client, each a process of its own with no engine code, run against the dev server on its embedded backend: the worker polls the gateway's task endpoints", async () => {
  const server = await startDevServer();
  try {
    // No brokers anywhere: NativeConnection.connect({ address }) takes the gateway's HTTP task path.
    await assertHelloWorldRuns({ LOGBOOK_KAFKA_BROKERS: '', LOGBOOK_ADDRESS: `127.0.0.1:${server.port}` });
  } finally {
    killNoEngineProcesses();
    await server.stop();
  }
});
