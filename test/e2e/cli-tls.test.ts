import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authOptionsFromFlags } from '../../gateway/auth/auth-options.js';
import { listenerTlsFromFlags } from '../../gateway/auth/listener-tls.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { serveHttpsGateway } from '../support/http-gateway.js';
import { runLogbookCli, type CliRun } from '../support/logbook-cli.js';
import { createTestPki, type TestPki } from '../support/test-pki.js';
import { uniqueName } from '../support/test-env.js';

/**
 * The Temporal CLI's TLS flags (`--tls-ca-path`, `--tls-cert-path`, `--tls-key-path`,
 * `--tls-server-name`, and their LOGBOOK_TLS_* variables) against a gateway served over HTTPS by a
 * private CA that authenticates callers by client certificate; each verb a process of its own, on
 * the embedded backend (no worker: runs are only started and listed).
 */

let directory: string;
let pki: TestPki;
let t: TestEngine;
let server: Server;
let port: number;

/** Clears the LOGBOOK_TLS_* variables of the test's environment unless given. */
const NO_TLS_ENV = { LOGBOOK_API_KEY: '', LOGBOOK_TLS_CA_PATH: '', LOGBOOK_TLS_CERT_PATH: '', LOGBOOK_TLS_KEY_PATH: '', LOGBOOK_TLS_SERVER_NAME: '' };
const logbook = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> => runLogbookCli(args, { ...NO_TLS_ENV, ...env });

const https = () => `https://127.0.0.1:${port}`;
const ca = () => ['--tls-ca-path', pki.path('ca.pem')];
const certificate = () => ['--tls-cert-path', pki.path('cli-tls-writer.pem'), '--tls-key-path', pki.path('cli-tls-writer.key')];
const start = (workflowId: string) => ['workflow', 'start', '--type', 'order', '-t', 'cli-tls', '-w', workflowId, '-o', 'json'];

before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-cli-tls-'));
  pki = await createTestPki(join(directory, 'pki'), { clients: ['cli-tls-writer'] });
  await writeFile(pki.path('principals.json'), JSON.stringify({ 'cli-tls-writer': { permissions: ['default:writer'] } }));
  const tls = listenerTlsFromFlags({ 'tls-cert': pki.path('server.pem'), 'tls-key': pki.path('server.key'), 'tls-client-ca': pki.path('ca.pem') })!;
  t = await startTestEngine('embedded', { workers: false, shards: 2 });
  server = await serveHttpsGateway(t.engine, tls, { auth: authOptionsFromFlags({ auth: true, 'auth-mtls-principals': pki.path('principals.json') }, tls.clientCertificates)! });
  port = (server.address() as { port: number }).port;
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await t.stop();
  await rm(directory, { recursive: true, force: true });
});

test('with --tls-ca-path, --tls-cert-path and --tls-key-path a start, a list and a describe go through an https gateway that authenticates by client certificate, and so does a route the CLI calls itself', async () => {
  const workflowId = uniqueName('cli-tls');
  const started = await logbook([...start(workflowId), '--address', https(), ...ca(), ...certificate()]);
  assert.equal(started.code, 0, started.stderr);
  assert.equal((JSON.parse(started.stdout) as { workflowId: string }).workflowId, workflowId);
  const [listed, described, queue] = await Promise.all([
    logbook(['workflow', 'list', '-o', 'json', '--address', https(), ...ca(), ...certificate()]),
    logbook(['workflow', 'describe', '-w', workflowId, '-o', 'json', '--address', https(), ...ca(), ...certificate()]),
    logbook(['task-queue', 'describe', '-t', 'cli-tls-no-runs', '-o', 'json', '--address', https(), ...ca(), ...certificate()]),
  ]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(Array.isArray(JSON.parse(listed.stdout)));
  assert.equal(described.code, 0, described.stderr);
  assert.equal((JSON.parse(described.stdout) as { executionInfo: { workflowId: string } }).executionInfo.workflowId, workflowId);
  assert.equal(queue.code, 3, `let in, the route answers that the queue has no topics yet: ${queue.stderr}`);
  assert.match(queue.stderr, /TaskQueueNotFound/);
});

test('the LOGBOOK_TLS_* variables do what the flags do, a --tls-* flag makes host:port https, and --tls-server-name is the name the certificate is checked against', async () => {
  const env = { LOGBOOK_TLS_CA_PATH: pki.path('ca.pem'), LOGBOOK_TLS_CERT_PATH: pki.path('cli-tls-writer.pem'), LOGBOOK_TLS_KEY_PATH: pki.path('cli-tls-writer.key') };
  const [listed, named, misnamed] = await Promise.all([
    logbook(['workflow', 'list', '-o', 'json', '--address', `127.0.0.1:${port}`], env),
    logbook(['workflow', 'list', '-o', 'json', '--address', https(), '--tls-server-name', 'localhost'], env),
    logbook(['workflow', 'list', '--address', https()], { ...env, LOGBOOK_TLS_SERVER_NAME: 'gateway.elsewhere.example' }),
  ]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(named.code, 0, named.stderr);
  assert.equal(misnamed.code, 5, misnamed.stderr);
  assert.match(misnamed.stderr, /ERR_TLS_CERT_ALTNAME_INVALID.*--tls-server-name/);
});

test('without the client certificate a verb exits 7 saying a client certificate or an API key is needed; without the CA it exits 5 with one line naming the certificate problem and --tls-ca-path', async () => {
  const [anonymous, untrusting] = await Promise.all([
    logbook(['workflow', 'list', '--address', https(), ...ca()]),
    logbook(['workflow', 'list', '--address', https(), ...certificate()]),
  ]);
  assert.equal(anonymous.code, 7, anonymous.stderr);
  assert.equal(anonymous.stderr.trim().split('\n').length, 1, 'one line, no stack');
  assert.match(anonymous.stderr, /^error: UNAUTHENTICATED: the gateway at https:\/\/127\.0\.0\.1:\d+ requires an API key or a client certificate: .*--tls-cert-path and --tls-key-path/);
  assert.equal(untrusting.code, 5, untrusting.stderr);
  assert.equal(untrusting.stderr.trim().split('\n').length, 1, 'one line, no stack');
  assert.match(untrusting.stderr, /^error: the TLS handshake with https:\/\/127\.0\.0\.1:\d+ failed: .*certificate.*\((?:SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\).*--tls-ca-path/);
});

test('TLS flags with an http:// address, or a client certificate without its key, are usage mistakes (exit 2)', async () => {
  const [plain, keyless] = await Promise.all([
    logbook(['workflow', 'list', '--address', `http://127.0.0.1:${port}`, ...ca()]),
    logbook(['workflow', 'list', '--address', https(), ...ca(), '--tls-cert-path', pki.path('cli-tls-writer.pem')]),
  ]);
  assert.equal(plain.code, 2, plain.stderr);
  assert.match(plain.stderr, /is plain http but a --tls-\* flag is given/);
  assert.equal(keyless.code, 2, keyless.stderr);
  assert.match(keyless.stderr, /--tls-cert-path and --tls-key-path .* go together/);
});
