import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { SignJWT } from 'jose';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { runLogbookCli, type CliRun } from '../support/logbook-cli.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/**
 * `--api-key` as an operator uses it against a gateway run with `--auth`: each verb a process of its
 * own, on the embedded backend (no worker: the runs only need to be started and listed).
 */

const SECRET = 'cli-api-key-test-secret-of-32-bytes-or-more';

let t: TestEngine;
let server: Server;
let reader: string;
let writer: string;
let forged: string;
let billingAdmin: string;

function token(claims: Record<string, unknown>, secret = SECRET): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(claims.sub)).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(secret));
}

/** `logbook …args` against the authenticating gateway, with `env` (LOGBOOK_API_KEY is cleared unless given). */
const logbook = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runLogbookCli([...args, '--address', addressOf(server)], { LOGBOOK_API_KEY: '', ...env });

const start = (workflowId: string) => ['workflow', 'start', '--type', 'order', '-t', 'cli-auth', '-w', workflowId];

before(async () => {
  t = await startTestEngine('embedded', { workers: false, shards: 2 });
  server = await serveGateway(t.engine, { auth: { jwt: { secret: new TextEncoder().encode(SECRET) } } });
  reader = await token({ sub: 'cli-reader', permissions: ['default:reader'] });
  writer = await token({ sub: 'cli-writer', permissions: ['default:writer'] });
  forged = await token({ sub: 'cli-forger', permissions: ['default:admin'] }, 'another-secret-of-at-least-32-bytes!!');
  billingAdmin = await token({ sub: 'cli-billing-admin', permissions: ['billing:admin'] });
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await t.stop();
});

test('without --api-key every verb exits 7 with one line telling to pass --api-key; a key signed by another secret exits 7 saying it was refused and why', async () => {
  const [list, audit, bad] = await Promise.all([
    logbook(['workflow', 'list']),
    logbook(['audit', 'list']),
    logbook(['workflow', 'list', '--api-key', forged]),
  ]);
  for (const run of [list, audit]) {
    assert.equal(run.code, 7, run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, 'one line, no stack');
    assert.match(run.stderr, /^error: UNAUTHENTICATED: the gateway at http:\/\/127\.0\.0\.1:\d+ requires an API key: pass --api-key <token> \(or set LOGBOOK_API_KEY\) \(this gateway requires authentication/);
  }
  assert.equal(bad.code, 7, bad.stderr);
  assert.match(bad.stderr, /^error: UNAUTHENTICATED: the gateway at \S+ refused the API key \(the bearer token was refused: .*signature/);
});

test('a reader key lists workflows and namespaces and reaches the task-queue route, and a start with it exits 4 with the gateway naming the writer role it lacks', async () => {
  const workflowId = uniqueName('cli-auth-reader');
  const [list, namespaces, queue, refused] = await Promise.all([
    logbook(['workflow', 'list', '-o', 'json', '--api-key', reader]),
    logbook(['namespace', 'list', '-o', 'json'], { LOGBOOK_API_KEY: reader }),
    logbook(['task-queue', 'describe', '-t', 'cli-auth', '-o', 'json', '--api-key', reader]),
    logbook([...start(workflowId), '--api-key', reader]),
  ]);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(Array.isArray(JSON.parse(list.stdout)));
  assert.equal(namespaces.code, 0, namespaces.stderr);
  assert.deepEqual((JSON.parse(namespaces.stdout) as Array<{ name: string }>).map((n) => n.name), ['default'], 'the key from LOGBOOK_API_KEY, which may read only default');
  assert.equal(queue.code, 3, 'let in, the route answers that the queue has no topics yet');
  assert.match(queue.stderr, /TaskQueueNotFound/);
  assert.equal(refused.code, 4, refused.stderr);
  assert.match(refused.stderr, /^error: PERMISSION_DENIED: 'cli-reader' may not POST \/api\/v1\/namespaces\/default\/workflows: it needs the writer role in namespace default/);
});

test('a writer key starts a workflow, and a reader key then lists it', async () => {
  const workflowId = uniqueName('cli-auth-writer');
  const started = await logbook([...start(workflowId), '-o', 'json'], { LOGBOOK_API_KEY: writer });
  assert.equal(started.code, 0, started.stderr);
  assert.equal((JSON.parse(started.stdout) as { workflowId: string }).workflowId, workflowId);
  const described = await logbook(['workflow', 'describe', '-w', workflowId, '-o', 'json', '--api-key', reader]);
  assert.equal(described.code, 0, described.stderr);
  assert.equal((JSON.parse(described.stdout) as { executionInfo: { workflowId: string } }).executionInfo.workflowId, workflowId);
});

test("a namespace's admin reads its audit trail with `audit list -n`, and `--all-namespaces` exits 4 naming the *:admin it needs", async () => {
  const workflowId = uniqueName('cli-auth-audit');
  const terminated = await logbook(['workflow', 'terminate', '-n', 'billing', '-w', workflowId, '--api-key', billingAdmin]);
  assert.notEqual(terminated.code, 0, 'no such run: refused, and audited all the same');
  const audited = async () => {
    const answer = await fetch(`${addressOf(server)}/api/v1/namespaces/billing/audit?workflowId=${workflowId}`, { headers: { authorization: `Bearer ${billingAdmin}` } });
    return answer.ok && ((await answer.json()) as { records: unknown[] }).records.length > 0;
  };
  await waitFor('the terminate audited', audited, 10_000);
  const [list, all] = await Promise.all([
    logbook(['audit', 'list', '-n', 'billing', '-w', workflowId, '-o', 'json', '--api-key', billingAdmin]),
    logbook(['audit', 'list', '--all-namespaces', '--api-key', billingAdmin]),
  ]);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual((JSON.parse(list.stdout) as Array<Record<string, unknown>>).map((r) => [r.action, r.namespace, r.principalSubject]), [['TerminateWorkflow', 'billing', 'cli-billing-admin']]);
  assert.equal(all.code, 4, all.stderr);
  assert.match(all.stderr, /PERMISSION_DENIED: .*permission "\*:admin"/);
});
