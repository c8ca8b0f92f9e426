import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client, Connection, ConnectionError, WorkflowFailedError } from 'logbook/client';
import { NativeConnection, Worker } from 'logbook/worker';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { addItem, approval, approve, greet, waitForever } from '../workflows/temporal-compatible.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers, uniqueName } from '../support/test-env.js';
import { freePort } from '../support/logbook-cli.js';

/**
 * `logbook/client` on Kafka itself, with no gateway running at all: what the client writes goes to
 * the command topic and its answers come back on the replies topic; only reads need a gateway.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));

let t: TestEngine;
let worker: Worker;
let running: Promise<void>;
let connection: Connection;
let client: Client;
let deadAddress: string;
const taskQueue = uniqueName('kafka-client');

before(async () => {
  t = await startTestEngine('kafka', { workers: false });
  worker = await Worker.create({ connection: NativeConnection.fromParts(t.engine.workerConnection(), engineHistoryFetcher(t.engine)), taskQueue, workflowsPath: WORKFLOWS, activities });
  running = worker.run();
  deadAddress = `127.0.0.1:${await freePort()}`;
  connection = await Connection.connect({ brokers: kafkaBrokers(), prefix: t.engine.catalog.prefix, address: deadAddress });
  client = new Client({ connection });
});
after(async () => {
  worker.shutdown();
  await running;
  await connection.close();
  await t.stop();
});

test('with no gateway anywhere, a client given brokers starts, signals, updates, terminates and waits for results through the topics', async () => {
  assert.equal(await client.workflow.execute(greet, { taskQueue, workflowId: uniqueName('greet'), args: ['Kafka'] }), 'Hello, Kafka!');
  const handle = await client.workflow.start(approval, { taskQueue, workflowId: uniqueName('approval') });
  assert.equal(await handle.executeUpdate(addItem, { args: ['book'] }), 1);
  await handle.signal(approve, 'ada');
  assert.equal(await handle.result(), 'approved by ada with 1 items');
  const forever = await client.workflow.start(waitForever, { taskQueue, workflowId: uniqueName('forever') });
  await forever.terminate('enough');
  const error = await forever.result().catch((e: unknown) => e);
  assert.ok(error instanceof WorkflowFailedError, `got ${String(error)}`);
});

test('reads that need the shard stores (describe, list) name the gateway they could not reach and say what needs it', async () => {
  const handle = await client.workflow.start(approval, { taskQueue, workflowId: uniqueName('approval') });
  const namesTheGateway = (e: unknown) => e instanceof Error && e.message.includes(deadAddress) && /read through a gateway/.test(e.message);
  await assert.rejects(handle.describe(), namesTheGateway);
  await assert.rejects(async () => {
    for await (const row of client.workflow.list()) assert.fail(`listed ${row.workflowId} without a gateway`);
  }, namesTheGateway);
  await handle.terminate();
});

test('brokers without the prefix\'s topics are a ConnectionError naming the missing command topic', async () => {
  await assert.rejects(Connection.connect({ brokers: kafkaBrokers(), prefix: 'no-such-deployment' }), (e: unknown) => e instanceof ConnectionError && /topic no-such-deployment\.commands does not exist/.test(e.message));
});
