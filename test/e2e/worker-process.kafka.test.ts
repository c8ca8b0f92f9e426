import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ActivityFailure, Client, Connection, WorkflowFailedError } from 'logbook/client';
import { NativeConnection, NativeConnectionError, Worker } from 'logbook/worker';
import { approval, approve, approvedAsync, charge, greet, stage } from '../workflows/temporal-compatible.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { killNoEngineProcesses, startNoEngineProcess } from '../support/no-engine-process.js';

/**
 * The normal deployment: a worker in a process of its own that imports only `logbook/worker` and
 * runs no engine code (its module hooks fail it if it loads any), on the real broker.
 */

const WORKER_MAIN = fileURLToPath(new URL('../support/compat-worker-main.ts', import.meta.url));

let t: TestEngine;
let server: Server;
let client: Client;
let workerEnv: Record<string, string>;
/** History pages the gateway served to workers (`?raw=1`). */
let historyPages = 0;
const taskQueue = uniqueName('worker-process');

before(async () => {
  t = await startTestEngine('kafka', { workers: false });
  server = await serveGateway(t.engine);
  server.on('request', (request: { url?: string }) => void (request.url?.includes('/history?raw=1') && historyPages++));
  client = new Client({ connection: await Connection.connect({ address: addressOf(server) }) });
  workerEnv = { WORKER_BROKERS: kafkaBrokers().join(','), WORKER_GATEWAY: addressOf(server), WORKER_PREFIX: t.engine.catalog.prefix, WORKER_TASK_QUEUE: taskQueue };
});
after(async () => {
  killNoEngineProcesses();
  server.close();
  await t.stop();
});

test('a worker process with no engine code runs workflows and activities, leaves an activity to async completion by another process; a second process replays a run from history paged through the gateway', async () => {
  const first = await startNoEngineProcess([WORKER_MAIN], workerEnv, /READY/);
  assert.equal(await client.workflow.execute(greet, { taskQueue, workflowId: uniqueName('greet'), args: ['worker'] }), 'Hello, worker!');
  assert.equal(await client.workflow.execute(charge, { taskQueue, workflowId: uniqueName('charge'), args: ['visa'] }), 'charged visa');
  const declined = await client.workflow.execute(charge, { taskQueue, workflowId: uniqueName('charge'), args: ['declined'] }).catch((e: unknown) => e);
  assert.ok(declined instanceof WorkflowFailedError && declined.cause instanceof ActivityFailure, `got ${String(declined)}`);
  const handle = await client.workflow.start(approval, { taskQueue, workflowId: uniqueName('approval') });
  assert.equal(await handle.query(stage), 'waiting for approval');

  // Async completion: the worker process leaves the activity open; this process completes it by its task token.
  const orderId = uniqueName('async');
  const approvalHandle = await client.workflow.start(approvedAsync, { taskQueue, workflowId: orderId, args: [orderId] });
  const token = await waitFor('the worker to announce the task token', () => new RegExp(`ASYNC ${orderId} (\\S+)`).exec(first.output.join(''))?.[1]);
  await client.activity.complete(token, 'approved from another process');
  assert.equal(await approvalHandle.result(), 'approved from another process');

  first.process.kill('SIGTERM');
  assert.equal(await first.exited, 0, first.output.join(''));
  assert.match(first.output.join(''), /STOPPED STOPPED/);

  // The run is in no worker's cache now: the next workflow task replays it from its history.
  const second = await startNoEngineProcess([WORKER_MAIN], workerEnv, /READY/);
  const pagesBefore = historyPages;
  await handle.signal(approve, 'grace');
  assert.equal(await handle.result(), 'approved by grace with 0 items');
  assert.ok(historyPages > pagesBefore, 'the second worker paged the run\'s history from the gateway');
  second.process.kill('SIGTERM');
  assert.equal(await second.exited, 0, second.output.join(''));
});

test('the no-engine-code guard fails a process that imports engine code', async () => {
  const script = `await import(${JSON.stringify(new URL('../../gateway/engine.ts', import.meta.url).href)});`;
  const child = await startNoEngineProcess(['--input-type=module', '-e', script], {}, null);
  assert.notEqual(await child.exited, 0);
  assert.match(child.output.join(''), /this process must run no engine code, but .* imports gateway\/engine\.ts/);
});

test('NativeConnection.connect names the prefix and topic when no engine created them, and Worker.create refuses a worker with nothing to run', async () => {
  const prefix = uniqueName('nobody').replaceAll('-', '_');
  await assert.rejects(NativeConnection.connect({ brokers: kafkaBrokers(), prefix }), (e: unknown) => e instanceof NativeConnectionError && e.message.includes(`topic ${prefix}.commands does not exist`));
  const connection = await NativeConnection.connect({ brokers: kafkaBrokers(), address: addressOf(server), prefix: t.engine.catalog.prefix });
  try {
    await assert.rejects(Worker.create({ connection, taskQueue }), /a worker needs workflowsPath \(or workflowBundle\), activities, or both/);
  } finally {
    await connection.close();
  }
});
