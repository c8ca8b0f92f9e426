import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Registry } from 'prom-client';
import { Engine } from '../engine.js';
import { createHttpApp } from '../http-app.js';
import { EngineMetrics } from '../metrics.js';
import { waitFor } from '../../test/support/test-env.js';
import { FORWARDED_HEADER, PeerCalls } from '../auth/peer-calls.js';
import { AUDITED_ROUTES, UNAUDITED_ROUTES } from './audit-actions.js';
import { flushAuditTrail } from './audit-trail.js';

/** The audit trail on an embedded engine: what is recorded, what is not, and how the trail is read. */

interface Answer {
  status: number;
  json: Record<string, unknown>;
}
type Row = Record<string, unknown>;

describe('audit trail', () => {
  let directory: string;
  let engine: Engine;
  let app: Express;
  let metrics: Registry;
  let server: Server;
  let base: string;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'logbook-audit-'));
    engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2 });
    metrics = new EngineMetrics(false).registry;
    app = createHttpApp({ engine, metrics, selfEndpoint: 'node-a' });
    server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server.close();
    await engine.stop();
    await rm(directory, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const trail = async (query = ''): Promise<Row[]> => {
    const answer = await call('GET', `/api/v1/audit${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return answer.json.records as Row[];
  };
  const WF = '/api/v1/namespaces/default/workflows';
  const start = { workflowId: 'audit-1', workflowType: 'OrderWorkflow', taskQueue: 'audit-orders', args: [{ card: 'personal data' }], requestId: 'req-start-1' };

  test('start, signal, terminate and a refused start are each recorded with their action, workflow, status and error code, newest first; reads and worker task calls are not', async () => {
    const started = await call('POST', WF, start);
    assert.equal(started.status, 201, JSON.stringify(started.json));
    assert.equal((await call('POST', `${WF}/audit-1/signals/paid`, { args: ['secret'] })).status, 202);
    // Reads, a query and the worker task endpoints: none of them is an operator's change.
    assert.equal((await call('GET', `${WF}/audit-1`)).status, 200);
    await call('GET', `${WF}?query=`);
    await call('POST', `${WF}/audit-1/query/status`, { timeout: '100ms' });
    assert.equal((await call('POST', '/api/v1/namespaces/default/task-queues/audit-idle/workflow-tasks/poll', { identity: 'w1', waitMs: 50 })).status, 204);
    await call('POST', '/api/v1/namespaces/default/task-queues/audit-idle/activity-tasks/complete', { taskToken: 'forged', result: null });
    // A call another node made on a caller's behalf is audited where the caller made it, not again here.
    assert.equal((await call('POST', `${WF}/audit-1/cancel`, {}, engine.peers.headers('POST', `${base}${WF}/audit-1/cancel`, undefined, '{}'))).status, 202);
    // The forwarded header alone, or a credential another deployment's key signed, proves nothing: both are audited.
    assert.equal((await call('POST', `${WF}/audit-1/cancel`, {}, { [FORWARDED_HEADER]: '1' })).status, 202);
    assert.equal((await call('POST', `${WF}/audit-1/cancel`, {}, new PeerCalls().headers('POST', `${base}${WF}/audit-1/cancel`))).status, 202);
    assert.equal((await call('POST', `${WF}/audit-1/terminate`, { reason: 'audit test' })).status, 202);
    const refused = await call('POST', WF, { workflowId: 'audit-2', taskQueue: 'audit-orders' });
    assert.equal(refused.status, 400);

    await flushAuditTrail(app);
    const records = await trail('?namespace=default');
    const summary = records.map((r) => [r.action, r.workflowId, r.statusCode, r.errorCode]);
    assert.deepEqual(summary, [
      ['StartWorkflow', 'audit-2', 400, refused.json.code],
      ['TerminateWorkflow', 'audit-1', 202, null],
      ['CancelWorkflow', 'audit-1', 202, null],
      ['CancelWorkflow', 'audit-1', 202, null],
      ['SignalWorkflow', 'audit-1', 202, null],
      ['StartWorkflow', 'audit-1', 201, null],
    ]);
    const first = records[5]!;
    assert.equal(first.runId, started.json.runId, 'the run id is read from the answer');
    assert.equal(first.requestId, 'req-start-1');
    assert.equal(first.route, '/api/v1/namespaces/:namespace/workflows');
    assert.equal(records[1]!.route, '/api/v1/namespaces/:namespace/workflows/:workflowId/terminate');
    assert.deepEqual([first.principalSubject, first.principalMethod, first.namespace, first.nodeId, first.method], ['anonymous', 'none', 'default', 'node-a', 'POST']);
    assert.match(String(first.remoteAddress), /127\.0\.0\.1/);
    assert.ok(Date.parse(String(first.time)) > 0);
    assert.doesNotMatch(JSON.stringify(records), /personal data|secret|audit test/, 'no body content reaches the trail');
  });

  test('the trail is read by namespace and by workflow, newest first and up to the limit', async () => {
    const elsewhere = await call('POST', '/api/v1/namespaces/audit-other/workflows/x-1/terminate', {});
    assert.ok(elsewhere.status >= 400);
    await waitFor('the other namespace audited', async () => (await trail()).some((r) => r.namespace === 'audit-other'), 10_000);
    assert.ok((await trail('?namespace=default')).every((r) => r.namespace === 'default'));
    const byWorkflow = await trail('?namespace=default&workflowId=audit-1');
    assert.deepEqual(byWorkflow.map((r) => r.action), ['TerminateWorkflow', 'CancelWorkflow', 'CancelWorkflow', 'SignalWorkflow', 'StartWorkflow']);
    const scoped = await call('GET', '/api/v1/namespaces/default/audit?workflowId=audit-1&limit=1');
    assert.equal(scoped.status, 200);
    assert.deepEqual((scoped.json.records as Row[]).map((r) => r.action), ['TerminateWorkflow']);
    assert.equal(scoped.json.order, 'newest-first');
    const future = await trail(`?since=${new Date(Date.now() + 60_000).toISOString()}`);
    assert.deepEqual(future, []);
    assert.ok((await trail('?limit=1000')).length >= 5, 'the largest limit is taken');
  });

  test('a bad limit, since or filter is refused with 400 naming the parameter', async () => {
    const bad: Array<[string, string]> = [
      ['limit=0', 'limit'], ['limit=1001', 'limit'], ['limit=-1', 'limit'], ['limit=1e3', 'limit'], ['limit=10.5', 'limit'],
      ['limit=', 'limit'], ['limit=abc', 'limit'], ['limit=99999999999999999999999', 'limit'], ['limit=1&limit=2', 'limit'],
      ['since=yesterday', 'since'], ['since=', 'since'], ['namespace=no%20spaces', 'namespace'], ['workflowId=', 'workflowId'],
    ];
    for (const [query, parameter] of bad) {
      const answer = await call('GET', `/api/v1/audit?${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(String(answer.json.message), new RegExp(parameter), query);
    }
  });

  test('a call whose path is in another case, which express routes all the same, is recorded under its route', async () => {
    assert.equal((await call('POST', WF, { ...start, workflowId: 'audit-case', requestId: 'req-case' })).status, 201);
    const terminated = await call('POST', '/API/V1/Namespaces/default/Workflows/audit-case/TERMINATE', { reason: 'case' });
    assert.equal(terminated.status, 202, 'express ran terminate');
    await flushAuditTrail(app);
    const records = await trail('?namespace=default&workflowId=audit-case');
    assert.deepEqual(records.map((r) => [r.action, r.route, r.statusCode]), [
      ['TerminateWorkflow', '/api/v1/namespaces/:namespace/workflows/:workflowId/terminate', 202],
      ['StartWorkflow', '/api/v1/namespaces/:namespace/workflows', 201],
    ]);
  });

  test('with authentication on, a call refused with 401 is recorded as unauthenticated, not as the anonymous caller of a gateway without it', async () => {
    const securedApp = createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'node-auth', auth: { jwt: { secret: new TextEncoder().encode('audit-trail-test-secret-of-32-bytes-or-more') } } });
    const secured = createServer(securedApp);
    await new Promise<void>((r) => secured.listen(0, '127.0.0.1', r));
    try {
      const port = (secured.address() as { port: number }).port;
      const refused = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces/audit-auth/workflows/w-1/terminate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401);
    } finally {
      secured.close();
    }
    await flushAuditTrail(securedApp);
    const [record] = await trail('?namespace=audit-auth');
    assert.ok(record, 'the refused call is audited');
    assert.deepEqual([record.principalSubject, record.principalMethod, record.statusCode, record.nodeId], ['unauthenticated', 'none', 401, 'node-auth']);
  });

  test("the app keeps its audit writer where a stopping node finds it: once flushAuditTrail resolves, the record of the call just answered is on the audit topic", async () => {
    const written = async () => (await metrics.getSingleMetric('logbook_audit_records_total')!.get()).values[0]?.value ?? 0;
    const before = await written();
    const refused = await call('POST', '/api/v1/namespaces/audit-flush/workflows/w-1/signals/s', {});
    assert.ok(refused.status >= 400);
    await flushAuditTrail(app);
    // Read with no turn of the event loop between: only a flush that waited has seen the write through.
    assert.equal(await written(), before + 1);
    assert.deepEqual((await trail('?namespace=audit-flush')).map((r) => r.action), ['SignalWorkflow'], 'read once, without waiting');
  });

  test('every mutating route of the app is either audited or listed as unaudited with its reason', () => {
    const known = new Set([...AUDITED_ROUTES, ...UNAUDITED_ROUTES].map((r) => `${r.method} ${r.route}`));
    const missing = mutatingRoutes(app).filter((route) => !known.has(route));
    assert.deepEqual(missing, []);
  });
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD path` of every POST, PUT, PATCH and DELETE route of the app, routers included (all mounted at the root). */
function mutatingRoutes(app: Express): string[] {
  const found: string[] = [];
  const visit = (stack: readonly Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          if (['post', 'put', 'patch', 'delete'].includes(method)) found.push(`${method.toUpperCase()} ${layer.route.path}`);
        }
      } else if (layer.handle?.stack) {
        visit(layer.handle.stack);
      }
    }
  };
  visit((app as unknown as { router: { stack: Layer[] } }).router.stack);
  assert.ok(found.length > 20, 'the route listing found the app routes');
  return found;
}
