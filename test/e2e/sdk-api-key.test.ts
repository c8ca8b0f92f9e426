import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { Client, Connection, ServiceError } from 'logbook/client';
import { DefaultLogger, GatewayAccessDeniedError, NativeConnection, Runtime, Worker, type LogEntry } from 'logbook/worker';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import { greet } from '../workflows/temporal-compatible.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { uniqueName } from '../support/test-env.js';

/**
 * The SDK's credentials as a Temporal user passes them — `Connection.connect({ address, apiKey })`,
 * `NativeConnection.connect({ address, apiKey })`, `setApiKey`, `metadata` — against a gateway run
 * with `--auth`, a worker on the HTTP task path, on the embedded backend.
 */

const SECRET = 'sdk-api-key-test-secret-of-32-bytes-or-more';
const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));

let t: TestEngine;
let server: Server;
let address: string;
let writer: string;
let reader: string;
const logged: LogEntry[] = [];
const taskQueue = uniqueName('api-key');

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(claims.sub)).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
}

/** A worker of `queue` over the gateway's task endpoints, running until the returned stop is called. */
async function runWorker(connection: NativeConnection, queue = taskQueue): Promise<{ worker: Worker; running: Promise<void> }> {
  const worker = await Worker.create({ connection, namespace: 'default', taskQueue: queue, workflowsPath: WORKFLOWS, activities });
  return { worker, running: worker.run() };
}

before(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN', (entry) => logged.push(entry)) });
  t = await startTestEngine('embedded', { workers: false, shards: 2 });
  server = await serveGateway(t.engine, { auth: { jwt: { secret: new TextEncoder().encode(SECRET) } } });
  address = addressOf(server).replace('http://', '');
  writer = await token({ sub: 'sdk-writer', permissions: ['default:writer'] });
  reader = await token({ sub: 'sdk-reader', permissions: ['default:reader'] });
});
after(async () => {
  Runtime.install({ logger: new DefaultLogger('INFO') });
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(t.engine);
  await t.stop();
});

test('a client with a writer key starts a workflow and gets the result a worker with a key for its task queue computed over the HTTP task path', async () => {
  const workerConnection = await NativeConnection.connect({ address, taskPath: 'gateway', apiKey: await token({ sub: 'sdk-worker', taskQueues: [`default:${taskQueue}`] }) });
  const { worker, running } = await runWorker(workerConnection);
  const connection = await Connection.connect({ address, apiKey: writer });
  try {
    const client = new Client({ connection });
    const handle = await client.workflow.start(greet, { taskQueue, workflowId: uniqueName('greet'), args: ['key'] });
    assert.equal(await handle.result(), 'Hello, key!');
    assert.equal((await handle.describe()).status.name, 'COMPLETED');
  } finally {
    worker.shutdown();
    await running;
    await workerConnection.close();
  }
});

test('without an apiKey a client call fails with ServiceError UNAUTHENTICATED carrying the gateway message', async () => {
  const client = new Client({ connection: await Connection.connect({ address }) });
  await assert.rejects(client.workflow.start(greet, { taskQueue, workflowId: uniqueName('anonymous'), args: ['x'] }), (error: unknown) => {
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, 'UNAUTHENTICATED');
    assert.equal(error.status, 401);
    assert.match(error.message, /this gateway requires authentication: send 'Authorization: Bearer <token>'/);
    return true;
  });
});

test('a reader key cannot start a workflow: ServiceError PERMISSION_DENIED naming the writer role it lacks', async () => {
  const client = new Client({ connection: await Connection.connect({ address, apiKey: reader }) });
  await assert.rejects(client.workflow.start(greet, { taskQueue, workflowId: uniqueName('reader'), args: ['x'] }), (error: unknown) => {
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, 'PERMISSION_DENIED');
    assert.equal(error.status, 403);
    assert.match(error.message, /needs the writer role in namespace default .*holds default:reader/);
    return true;
  });
});

test('setApiKey switches the key of a connection for the clients already made from it; metadata can carry the bearer token instead', async () => {
  const connection = await Connection.connect({ address, apiKey: reader });
  const client = new Client({ connection });
  const workflowId = uniqueName('rotated');
  await assert.rejects(client.workflow.start(greet, { taskQueue, workflowId, args: ['x'] }), { code: 'PERMISSION_DENIED' });
  connection.setApiKey(writer);
  const handle = await client.workflow.start(greet, { taskQueue, workflowId, args: ['x'] });
  assert.equal(handle.workflowId, workflowId);
  const viaMetadata = new Client({ connection: await Connection.connect({ address, metadata: { Authorization: `Bearer ${writer}` } }) });
  assert.equal((await viaMetadata.workflow.getHandle(workflowId).describe()).workflowId, workflowId);
  assert.throws(() => Connection.lazy({ address, apiKey: writer, metadata: { authorization: `Bearer ${reader}` } }), /apiKey or an authorization metadata entry, not both/);
});

test('a worker whose key holds another task queue fails Worker.run with PERMISSION_DENIED and logs the refusal once', { timeout: 30_000 }, async () => {
  logged.length = 0;
  const queue = uniqueName('not-granted');
  const connection = await NativeConnection.connect({ address, taskPath: 'gateway', apiKey: await token({ sub: 'sdk-other-worker', taskQueues: ['default:some-other-queue'] }) });
  try {
    const { worker, running } = await runWorker(connection, queue);
    await assert.rejects(running, (error: unknown) => {
      assert.ok(error instanceof GatewayAccessDeniedError, String(error));
      assert.equal(error.code, 'PERMISSION_DENIED');
      assert.match(error.message, new RegExp(`task queue ${queue} of namespace default \\(HTTP 403 PERMISSION_DENIED\\): .*holds task queue default:some-other-queue`));
      assert.match(error.message, new RegExp(`taskQueues \\["default:${queue}"\\]`));
      return true;
    });
    assert.equal(worker.getState(), 'FAILED');
    const refusals = logged.filter((entry) => entry.level === 'ERROR' && entry.message.includes("refused this worker's"));
    assert.equal(refusals.length, 1, logged.map((entry) => entry.message).join('\n'));
  } finally {
    await connection.close();
  }
});

test('NativeConnection.setApiKey gives the workers the new key, and LOGBOOK_API_KEY is the default key of NativeConnection.connect', async () => {
  const queue = uniqueName('rotated-worker');
  const saved = process.env.LOGBOOK_API_KEY;
  process.env.LOGBOOK_API_KEY = await token({ sub: 'sdk-env-worker', taskQueues: ['default:some-other-queue'] });
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect({ address, taskPath: 'gateway' });
  } finally {
    if (saved === undefined) delete process.env.LOGBOOK_API_KEY;
    else process.env.LOGBOOK_API_KEY = saved;
  }
  assert.match(connection.access!.headers().authorization ?? '', /^Bearer ey/, 'the key from the environment');
  connection.setApiKey(await token({ sub: 'sdk-rotated-worker', taskQueues: [`default:${queue}`] }));
  const { worker, running } = await runWorker(connection, queue);
  try {
    const client = new Client({ connection: await Connection.connect({ address, apiKey: writer }) });
    assert.equal(await client.workflow.execute(greet, { taskQueue: queue, workflowId: uniqueName('rotated-worker'), args: ['rotated'] }), 'Hello, rotated!');
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
});
