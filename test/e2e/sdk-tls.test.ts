import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection, ConnectionError, ServiceError } from 'logbook/client';
import { NativeConnection, NativeConnectionError, Worker } from 'logbook/worker';
import { authOptionsFromFlags } from '../../gateway/auth/auth-options.js';
import { listenerTlsFromFlags } from '../../gateway/auth/listener-tls.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import { greet } from '../workflows/temporal-compatible.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { serveHttpsGateway } from '../support/http-gateway.js';
import { createTestPki, type TestPki } from '../support/test-pki.js';
import { uniqueName } from '../support/test-env.js';

/**
 * Temporal's `tls` option — `Connection.connect({ address, tls })` and `NativeConnection.connect({
 * address, tls })` — against a gateway served over HTTPS by a private CA that authenticates callers
 * by client certificate (`--tls-client-ca` with `--auth-mtls-principals`), a worker on the HTTP task
 * path, on the embedded backend.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const taskQueue = uniqueName('tls');

let directory: string;
let pki: TestPki;
let t: TestEngine;
let server: Server;
let port: number;
let https: string;

/** The client certificate the principals file maps to `default:writer` and the test's task queue. */
const clientCertPair = () => ({ crt: pki.pem['sdk-tls-writer.pem']!, key: pki.pem['sdk-tls-writer.key']! });
const trusted = () => ({ serverRootCACertificate: pki.pem['ca.pem']!, clientCertPair: clientCertPair() });

before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-sdk-tls-'));
  pki = await createTestPki(join(directory, 'pki'), { clients: ['sdk-tls-writer'] });
  await writeFile(pki.path('principals.json'), JSON.stringify({ 'sdk-tls-writer': { permissions: ['default:writer'], taskQueues: [`default:${taskQueue}`] } }));
  const tls = listenerTlsFromFlags({ 'tls-cert': pki.path('server.pem'), 'tls-key': pki.path('server.key'), 'tls-client-ca': pki.path('ca.pem') })!;
  t = await startTestEngine('embedded', { workers: false, shards: 2 });
  server = await serveHttpsGateway(t.engine, tls, { auth: authOptionsFromFlags({ auth: true, 'auth-mtls-principals': pki.path('principals.json') }, tls.clientCertificates)! });
  port = (server.address() as { port: number }).port;
  https = `https://127.0.0.1:${port}`;
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(t.engine);
  await t.stop();
  await rm(directory, { recursive: true, force: true });
});

test("a client presenting a client certificate starts a workflow that a worker presenting one completes over the HTTP task path, and gets the result", async () => {
  const workerConnection = await NativeConnection.connect({ address: https, taskPath: 'gateway', tls: trusted() });
  const worker = await Worker.create({ connection: workerConnection, namespace: 'default', taskQueue, workflowsPath: WORKFLOWS, activities });
  const running = worker.run();
  try {
    // host:port, as Temporal users write it: `tls` makes it https.
    const client = new Client({ connection: await Connection.connect({ address: `127.0.0.1:${port}`, tls: trusted() }) });
    const handle = await client.workflow.start(greet, { taskQueue, workflowId: uniqueName('tls-greet'), args: ['mTLS'] });
    assert.equal(await handle.result(), 'Hello, mTLS!');
    assert.equal((await handle.describe()).status.name, 'COMPLETED');
  } finally {
    worker.shutdown();
    await running;
    await workerConnection.close();
  }
});

test('a client that trusts the CA but presents no client certificate fails with ServiceError UNAUTHENTICATED', async () => {
  const client = new Client({ connection: await Connection.connect({ address: https, tls: { serverRootCACertificate: pki.pem['ca.pem']! } }) });
  await assert.rejects(client.workflow.start(greet, { taskQueue, workflowId: uniqueName('tls-anonymous'), args: ['x'] }), (error: unknown) => {
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, 'UNAUTHENTICATED');
    assert.equal(error.status, 401);
    assert.match(error.message, /or a client certificate/);
    return true;
  });
});

test("without the gateway's CA, Connection.connect and NativeConnection.connect fail with one sentence naming the certificate and the option that trusts its CA", async () => {
  await assert.rejects(Connection.connect({ address: https, tls: { clientCertPair: clientCertPair() } }), (error: unknown) => {
    assert.ok(error instanceof ConnectionError, String(error));
    assert.match(error.message, new RegExp(`^cannot connect to the Logbook gateway: the TLS handshake with ${https} failed: .*certificate.* \\((?:SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\\)\\. .*serverRootCACertificate`));
    assert.doesNotMatch(error.message, /\n/, 'one line, no stack');
    return true;
  });
  await assert.rejects(NativeConnection.connect({ address: https, taskPath: 'gateway', tls: true, connectTimeout: 5_000 }), (error: unknown) => {
    assert.ok(error instanceof NativeConnectionError, String(error));
    assert.match(error.message, /the TLS handshake with https:\/\/127\.0\.0\.1:\d+ failed: .*certificate.*serverRootCACertificate/);
    return true;
  });
});

test("serverNameOverride is the name the gateway's certificate is checked against", async () => {
  const client = new Client({ connection: await Connection.connect({ address: https, tls: { ...trusted(), serverNameOverride: 'localhost' } }) });
  assert.equal(typeof (await client.workflow.count()).count, 'number', 'a call goes through');
  await assert.rejects(Connection.connect({ address: https, tls: { ...trusted(), serverNameOverride: 'gateway.elsewhere.example' } }), (error: unknown) => {
    assert.ok(error instanceof ConnectionError, String(error));
    assert.match(error.message, /ERR_TLS_CERT_ALTNAME_INVALID.*serverNameOverride/);
    return true;
  });
});

test('tls with an http:// address is refused as a contradiction before any call', () => {
  assert.throws(() => Connection.lazy({ address: `http://127.0.0.1:${port}`, tls: true }), /is plain http but tls is set/);
});
