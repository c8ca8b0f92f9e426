import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { NativeConnection, Worker } from 'logbook/worker';
import { PeerCalls } from '../../gateway/auth/peer-calls.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/**
 * Authentication across two engine nodes on the real broker. Each node serves its own gateway with
 * `--auth`; a read that needs a shard the other node owns is forwarded with the one-minute peer
 * credential signed by the deployment key both nodes share. A caller's token is checked once, by
 * the node it called; the peer trusts that node's credential and no other.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const SHARDS = 4;
const JWT_SECRET = randomBytes(32);
const DEPLOYMENT_KEY = randomBytes(32);
// Nobody serves this queue: every run stays Running with the state its start wrote.
const idleQueue = uniqueName('auth2-nobody');
const queryQueue = uniqueName('auth2-query');
const ids: string[] = [];
const runIds = new Map<string, string>();

interface Node {
  readonly t: TestEngine;
  readonly server: Server;
  readonly endpoint: string;
}
let a: Node;
let b: Node;
let worker: Worker | undefined;
let running: Promise<void> | undefined;
const tokens = { reader: '', writer: '', other: '' };

async function token(subject: string, permissions: string[]): Promise<string> {
  return new SignJWT({ permissions }).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setIssuedAt().setExpirationTime('5m').sign(JWT_SECRET);
}

/** One node: its gateway listens first, so the engine advertises the URL the other node forwards to. */
async function startNode(prefix: string, deploymentKey: Buffer): Promise<Node> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const t = await startTestEngine('kafka', { workers: false, prefix, shards: SHARDS, engine: { endpoint, deploymentKey } });
  server.on('request', createHttpApp({ engine: t.engine, metrics: new EngineMetrics(false).registry, selfEndpoint: endpoint, auth: { jwt: { secret: JWT_SECRET } } }));
  return { t, server, endpoint };
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One API call with a bearer token (or the given headers instead), its status and JSON body. */
async function call(node: Node | string, method: string, path: string, bearer: string | Record<string, string>, body?: unknown): Promise<Answer> {
  const base = typeof node === 'string' ? node : node.endpoint;
  const auth = typeof bearer === 'string' ? { authorization: `Bearer ${bearer}` } : bearer;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
}

const workflowPath = (id: string) => `/api/v1/namespaces/default/workflows/${encodeURIComponent(id)}`;
const ownedByB = async (id: string) => (await a.t.engine.ownerOf('default', id)) === b.endpoint;

/** The first of the idle workflows whose shard `node` owns. */
async function idleRunOn(node: Node): Promise<string> {
  for (const id of ids) if ((await a.t.engine.ownerOf('default', id)) === node.endpoint) return id;
  throw new Error(`no idle run on ${node.endpoint}`);
}

before(async () => {
  const prefix = uniqueName('lb_auth2').replaceAll('-', '_');
  a = await startNode(prefix, DEPLOYMENT_KEY);
  b = await startNode(prefix, DEPLOYMENT_KEY);
  // Both nodes own shards, all of them are assigned, and each node knows where the others live.
  await waitFor('both nodes to own shards', async () => {
    const [onA, onB] = [a.t.engine.node.ownedShards(), b.t.engine.node.ownedShards()];
    if (onA.length === 0 || onB.length === 0 || onA.length + onB.length !== SHARDS) return false;
    for (const node of [a, b]) {
      const members = await node.t.engine.node.members();
      if (!members.some((m) => m.endpoint === a.endpoint && m.partitions.length > 0) || !members.some((m) => m.endpoint === b.endpoint && m.partitions.length > 0)) return false;
    }
    return (await a.t.engine.health.readiness()).ready && (await b.t.engine.health.readiness()).ready;
  }, 60_000);
  // Three runs on each shard, so whichever way the shards are split, both nodes own some of them.
  const perShard = new Map<number, number>();
  for (let i = 0; ids.length < 3 * SHARDS; i++) {
    const id = uniqueName(`auth2-idle-${i}`);
    const shard = a.t.engine.catalog.shardOf('default', id);
    if ((perShard.get(shard) ?? 0) >= 3) continue;
    perShard.set(shard, (perShard.get(shard) ?? 0) + 1);
    ids.push(id);
  }
  tokens.reader = await token('reader', ['default:reader']);
  tokens.writer = await token('writer', ['default:writer']);
  tokens.other = await token('other-admin', ['other:admin']);
  for (const workflowId of ids) {
    const started = await call(a, 'POST', '/api/v1/namespaces/default/workflows', tokens.writer, { workflowId, workflowType: 'idle', taskQueue: idleQueue });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    runIds.set(workflowId, String(started.body.runId));
  }
});

after(async () => {
  worker?.shutdown();
  await running;
  for (const node of [b, a]) {
    if (!node) continue;
    node.server.closeAllConnections();
    node.server.close();
    await stopTaskBridges(node.t.engine);
    await node.t.stop();
  }
});

test('a writer starting workflows through node A lands them on shards of both nodes', async () => {
  const owners = await Promise.all(ids.map((id) => a.t.engine.ownerOf('default', id)));
  assert.ok(owners.includes(a.endpoint) && owners.includes(b.endpoint), `owners: ${owners.join(', ')}`);
});

test('through node A a reader describes and reads the history of every workflow, those on B forwarded with the peer credential', async () => {
  let forwarded = 0;
  for (const id of ids) {
    if (await ownedByB(id)) forwarded++;
    const described = await call(a, 'GET', workflowPath(id), tokens.reader);
    assert.equal(described.status, 200, `describe ${id}: ${JSON.stringify(described.body)}`);
    assert.equal((described.body.executionInfo as { status: string }).status, 'Running');
    const history = await call(a, 'GET', `${workflowPath(id)}/history`, tokens.reader);
    assert.equal(history.status, 200, `history ${id}: ${JSON.stringify(history.body)}`);
    assert.equal((history.body.events as Array<{ eventType?: string; type?: string }>).length > 0, true);
  }
  assert.ok(forwarded > 0, 'some reads went to node B');
});

test('a worker inside node A replays a run node B owns from the history B serves to the peer credential', async () => {
  const workflowId = await idleRunOn(b);
  const events = await engineHistoryFetcher(a.t.engine).fetch({ namespace: 'default', workflowId, runId: runIds.get(workflowId)! }, 2);
  assert.equal(events.length, 2);
});

test('through node A a reader lists and counts the runs of every shard, node B asked with the peer credential', async () => {
  const query = encodeURIComponent(`TaskQueue = '${idleQueue}'`);
  const listed = await call(a, 'GET', `/api/v1/namespaces/default/workflows?query=${query}`, tokens.reader);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.deepEqual((listed.body.executions as Array<{ workflowId: string }>).map((r) => r.workflowId).sort(), [...ids].sort());
  const counted = await call(a, 'GET', `/api/v1/namespaces/default/workflow-count?query=${query}`, tokens.reader);
  assert.equal(counted.status, 200, JSON.stringify(counted.body));
  assert.equal(counted.body.count, ids.length);
});

test('a result wait of 1s through node A on a run node B owns answers with where the run stands', async () => {
  const id = await idleRunOn(b);
  const waited = await call(a, 'GET', `${workflowPath(id)}/result?timeout=1s`, tokens.reader);
  assert.equal(waited.status, 200, JSON.stringify(waited.body));
  assert.equal(waited.body.status, 'Running');
});

test('a reader queries through node A a run whose shard node B owns, located through B with the peer credential', async () => {
  const first = a.t.engine;
  worker = await Worker.create({ connection: NativeConnection.fromParts(first.workerConnection(), engineHistoryFetcher(first)), taskQueue: queryQueue, workflowsPath: WORKFLOWS, activities });
  running = worker.run();
  let workflowId = '';
  for (let i = 0; workflowId === ''; i++) {
    const candidate = uniqueName(`auth2-query-${i}`);
    if (await ownedByB(candidate)) workflowId = candidate;
  }
  const started = await call(a, 'POST', '/api/v1/namespaces/default/workflows', tokens.writer, { workflowId, workflowType: 'approval', taskQueue: queryQueue });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  // The first workflow task must be done before a query has handlers to answer it.
  let last: Answer | undefined;
  const answered = await waitFor('the query to be answered', async () => {
    last = await call(a, 'POST', `${workflowPath(workflowId)}/query/stage`, tokens.reader, { timeout: '3s' });
    return last.status === 200 ? last : undefined;
  }, 15_000).catch((error: Error) => {
    throw new Error(`${error.message}; the last answer: ${last?.status} ${JSON.stringify(last?.body)}`);
  });
  assert.equal(answered.body.result, 'waiting for approval');
  assert.equal((await call(a, 'POST', `${workflowPath(workflowId)}/terminate`, tokens.writer, { reason: 'test done' })).status, 202);
});

test('node B takes a peer credential signed with the deployment key for its own path only, and refuses one signed with another key', async () => {
  const id = await idleRunOn(b);
  const url = `${b.endpoint}${workflowPath(id)}`;
  const fromA = await call(url, 'GET', '', a.t.engine.peers.headers('GET', url));
  assert.equal(fromA.status, 200, JSON.stringify(fromA.body));
  const otherKey = await call(url, 'GET', '', new PeerCalls(randomBytes(32)).headers('GET', url));
  assert.equal(otherKey.status, 401);
  assert.match(String(otherKey.body.message), /not signed with this deployment's key/);
  const otherPath = await call(`${url}/history`, 'GET', '', a.t.engine.peers.headers('GET', url));
  assert.equal(otherPath.status, 401);
  assert.match(String(otherPath.body.message), /issued for GET/);
});

test('a reader cannot terminate through either node, and a token for namespace other reads nothing of default through either', async () => {
  const [onA, onB] = [await idleRunOn(a), await idleRunOn(b)];
  for (const node of [a, b]) {
    for (const id of [onA, onB]) {
      const terminated = await call(node, 'POST', `${workflowPath(id)}/terminate`, tokens.reader, { reason: 'not allowed' });
      assert.equal(terminated.status, 403, `terminate ${id} through ${node.endpoint}: ${JSON.stringify(terminated.body)}`);
      assert.equal(terminated.body.code, 'PERMISSION_DENIED');
      const described = await call(node, 'GET', workflowPath(id), tokens.other);
      assert.equal(described.status, 403, `describe ${id} through ${node.endpoint}: ${JSON.stringify(described.body)}`);
    }
    assert.equal((await call(node, 'GET', '/api/v1/namespaces/default/workflows', tokens.other)).status, 403);
  }
  // The refused terminations changed nothing.
  for (const id of [onA, onB]) assert.equal(((await call(a, 'GET', workflowPath(id), tokens.reader)).body.executionInfo as { status: string }).status, 'Running');
});

test("a worker token reads the history of its own queue's runs through either node, and another queue's through neither, forwarded or not", async () => {
  const [onA, onB] = [await idleRunOn(a), await idleRunOn(b)];
  const ownWorker = await new SignJWT({ taskQueues: [`default:${idleQueue}`] }).setProtectedHeader({ alg: 'HS256' }).setSubject('idle-worker').setExpirationTime('5m').sign(JWT_SECRET);
  const otherWorker = await new SignJWT({ taskQueues: ['default:payroll'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('payroll-worker').setExpirationTime('5m').sign(JWT_SECRET);
  for (const node of [a, b]) {
    for (const id of [onA, onB]) {
      assert.equal((await call(node, 'GET', `${workflowPath(id)}/history`, ownWorker)).status, 200, `own queue, ${id} through ${node.endpoint}`);
      const refused = await call(node, 'GET', `${workflowPath(id)}/history`, otherWorker);
      assert.equal(refused.status, 403, `another queue, ${id} through ${node.endpoint}: ${JSON.stringify(refused.body)}`);
      assert.match(String(refused.body.message), new RegExp(`on task queue ${idleQueue}`));
    }
  }
});
