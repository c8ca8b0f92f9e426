import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { SignJWT } from 'jose';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { appRoutes, type AppRoute } from '../../gateway/auth/app-routes.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import { describeRule } from '../../gateway/auth/route-rules.js';

/**
 * Every route of the gateway × every kind of caller gives the answer the README's route table
 * documents: 401 without a credential, 403 without the right, and through to the route otherwise.
 * The table itself is checked against the app, so a route added without a rule, or a rule changed
 * without the README, fails here.
 */

const SECRET = 'route-matrix-secret-of-at-least-32-bytes!';
const README = new URL('../../README.md', import.meta.url);

let node: TestEngine;
let server: Server;
let base: string;
let routes: AppRoute[];

type Caller = 'no token' | 'wrong namespace' | 'reader' | 'writer' | 'admin' | 'admin of *' | 'worker of orders';
const CLAIMS: Record<Exclude<Caller, 'no token'>, Record<string, unknown>> = {
  'wrong namespace': { permissions: ['shipping:admin'], taskQueues: ['shipping:*'] },
  reader: { permissions: ['billing:reader'] },
  writer: { permissions: ['billing:writer'] },
  admin: { permissions: ['billing:admin'] },
  'admin of *': { permissions: ['*:admin'] },
  'worker of orders': { taskQueues: ['billing:orders'] },
};
const tokens = new Map<Caller, string>();

async function token(claims: Record<string, unknown>, secret = SECRET, expires = '5m'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(claims.sub ?? 'tester')).setIssuedAt().setExpirationTime(expires).sign(new TextEncoder().encode(secret));
}

/** The documented answer: 'allowed' (the route runs), 401 or 403. */
function expected(rule: string, caller: Caller, queue: string): 'allowed' | 401 | 403 {
  if (rule === 'anyone') return 'allowed';
  if (caller === 'no token') return 401;
  if (rule === 'signed in' || caller === 'admin of *') return 'allowed';
  const rank = { reader: 1, writer: 2, admin: 3 } as Record<string, number>;
  const namespaceRole = /^(reader|writer|admin) of the namespace$/.exec(rule);
  if (namespaceRole) return (rank[caller] ?? 0) >= rank[namespaceRole[1]!]! ? 'allowed' : 403;
  if (rule === 'reader or worker of the namespace') return caller === 'wrong namespace' ? 403 : 'allowed';
  if (/ of \*$/.test(rule)) return 403;
  if (rule === 'the task queue') return caller === 'admin' || (caller === 'worker of orders' && queue === 'orders') ? 'allowed' : 403;
  throw new Error(`the README names a rule the test does not know: ${rule}`);
}

/** The README's route table: `METHOD path` → rule. */
async function documentedRules(): Promise<Map<string, string>> {
  const text = await readFile(README, 'utf8');
  const rows = [...text.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+) \|$/gm)];
  return new Map(rows.map((m) => [`${m[1]} ${m[2]}`, m[3]!.trim()]));
}

function concretePath(path: string, queue: string): string {
  return path
    .replace(':namespace', 'billing')
    .replace(':taskQueue', queue)
    .replace('*rest', 'somewhere')
    .replace(/:([A-Za-z]+)/g, (_m, name: string) => `matrix-${name}`);
}

/** The status of one call, or 'pending' when the route is still working after 2 s (it let the caller in). */
async function statusOf(method: string, path: string, caller: Caller): Promise<{ status: number | 'pending'; code?: string }> {
  const bearer = tokens.get(caller);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) };
  try {
    // Short waits, so long polls let go soon (the answer to the caller matters here, not the wait).
    const url = method === 'GET' ? `${base}${path}?timeout=1s` : `${base}${path}`;
    const response = await fetch(url, { method, headers, ...(method === 'GET' ? {} : { body: JSON.stringify({ waitMs: 200, timeout: '1s' }) }), signal: AbortSignal.timeout(2_000) });
    const json = (await response.json().catch(() => ({}))) as { code?: string };
    return { status: response.status, ...(json.code ? { code: json.code } : {}) };
  } catch {
    return { status: 'pending' };
  }
}

/** The route matrix against a gateway with `--auth` over an engine of `backend`. */
export function routeMatrixConformance(backend: 'kafka' | 'embedded'): void {
before(async () => {
  node = await startTestEngine(backend, { workers: false, shards: 2 });
  server = await serveGateway(node.engine, { auth: { jwt: { secret: new TextEncoder().encode(SECRET) } } });
  base = addressOf(server);
  routes = appRoutes(createHttpApp({ engine: node.engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'self' }));
  for (const [caller, claims] of Object.entries(CLAIMS)) tokens.set(caller as Caller, await token({ sub: caller, ...claims }));
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(node.engine);
  await node.stop();
});

describe('every route has a rule, and the README documents it', () => {
  test('no route of the app is left without an authorisation rule', () => {
    const bare = routes.filter((r) => r.rule === undefined).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(bare, []);
    assert.ok(routes.length > 40, `only ${routes.length} routes found: the walk of the router missed some`);
  });

  test("the README's route table lists exactly the app's routes, each with the rule the app applies", async () => {
    const documented = await documentedRules();
    const actual = new Map(routes.map((r) => [`${r.method} ${r.path}`, describeRule(r.rule!)]));
    assert.deepEqual([...documented.keys()].sort(), [...actual.keys()].sort());
    for (const [route, rule] of actual) assert.equal(documented.get(route), rule, route);
  });
});

describe('route × caller matrix', () => {
  const callers: Caller[] = ['no token', 'wrong namespace', 'reader', 'writer', 'admin', 'admin of *', 'worker of orders'];

  test('every route answers each kind of caller as documented (401, 403, or through)', async () => {
    const documented = await documentedRules();
    const cases = routes.flatMap((route) => callers.map((caller) => ({ route, caller, rule: documented.get(`${route.method} ${route.path}`)! })));
    const wrong: string[] = [];
    for (let at = 0; at < cases.length; at += 24) {
      await Promise.all(cases.slice(at, at + 24).map(async ({ route, caller, rule }) => {
        const answer = await statusOf(route.method, concretePath(route.path, 'orders'), caller);
        const want = expected(rule, caller, 'orders');
        const refusedAs = answer.status === 401 && answer.code === 'UNAUTHENTICATED' ? 401 : answer.status === 403 && answer.code === 'PERMISSION_DENIED' ? 403 : 'allowed';
        if (refusedAs !== want) wrong.push(`${route.method} ${route.path} as ${caller}: expected ${want}, got ${answer.status} ${answer.code ?? ''}`);
      }));
    }
    assert.deepEqual(wrong, []);
  });

  test("a worker's token for one task queue cannot poll or answer another queue's tasks", async () => {
    const taskRoutes = routes.filter((r) => r.path.includes('/task-queues/:taskQueue/'));
    assert.ok(taskRoutes.length >= 10);
    for (const route of taskRoutes) {
      const answer = await statusOf(route.method, concretePath(route.path, 'payments'), 'worker of orders');
      assert.equal(answer.status, 403, `${route.method} ${route.path}`);
      assert.equal(answer.code, 'PERMISSION_DENIED');
    }
  });
});
}
