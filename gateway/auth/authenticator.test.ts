import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import type { Server } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { addressOf, serveGateway, serveHttpsGateway } from '../../test/support/http-gateway.js';
import { Engine } from '../engine.js';
import { waitFor } from '../../test/support/test-env.js';
import { authOptionsFromFlags } from './auth-options.js';
import { listenerTlsFromFlags } from './listener-tls.js';
import { PeerCalls } from './peer-calls.js';
import { TokenSigner } from '../task-endpoints/token-signer.js';
import { grantsOf, hasRole, mayServeQueue } from './grants.js';
import { createTestPki, type TestPki } from '../../test/support/test-pki.js';

/** How each credential is taken or refused, and what the 401 and 403 answers say. */

const SECRET = 'authenticator-test-secret-of-32-bytes-or-more';
const NAMESPACES = '/api/v1/namespaces/billing/workflows';

let directory: string;
let engine: Engine;
let server: Server;
let base: string;
let rsa: Awaited<ReturnType<typeof generateKeyPair>>;

const sign = (claims: Record<string, unknown>, options: { secret?: string; expires?: string | number; issuer?: string } = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime(options.expires ?? '5m').setIssuer(options.issuer ?? 'https://login.example').sign(new TextEncoder().encode(options.secret ?? SECRET));

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; code?: string; message?: string; authenticate: string | null }> {
  const response = await fetch(`${base}${path}`, { headers });
  const json = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  return { status: response.status, ...json, authenticate: response.headers.get('www-authenticate') };
}

before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-authn-'));
  rsa = await generateKeyPair('RS256');
  const jwksFile = join(directory, 'jwks.json');
  await writeFile(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(rsa.publicKey)), kid: 'k1', alg: 'RS256' }] }));
  engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 1 });
  // The listing reads the shard: it must be open before the first call.
  await waitFor('the engine to be ready', async () => (await engine.health.readiness()).ready, 30_000);
  const auth = authOptionsFromFlags({ auth: true, 'auth-jwt-secret': SECRET, 'auth-jwks': jwksFile, 'auth-issuer': 'https://login.example' }, false)!;
  server = await serveGateway(engine, { auth });
  base = addressOf(server);
});
after(async () => {
  server.close();
  await engine.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('bearer tokens', () => {
  test('a request without a credential gets 401 saying what to send, with WWW-Authenticate', async () => {
    const answer = await get(NAMESPACES);
    assert.equal(answer.status, 401);
    assert.equal(answer.code, 'UNAUTHENTICATED');
    assert.match(answer.message!, /Authorization: Bearer/);
    assert.match(answer.authenticate ?? '', /^Bearer/);
  });

  test('an HS256 token with the reader role lists the namespace; an RS256 token from the JWKS does too', async () => {
    assert.equal((await get(NAMESPACES, { authorization: `Bearer ${await sign({ permissions: ['billing:reader'] })}` })).status, 200);
    const rs = await new SignJWT({ permissions: ['billing:read'] }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setSubject('bob').setIssuer('https://login.example').setExpirationTime('5m').sign(rsa.privateKey);
    assert.equal((await get(NAMESPACES, { authorization: `Bearer ${rs}` })).status, 200);
  });

  test('expired, wrongly signed, wrong-issuer, unsigned and malformed tokens are refused with 401 naming why', async () => {
    const cases: Array<[string, RegExp]> = [
      [await sign({ permissions: ['billing:reader'] }, { expires: Math.floor(Date.now() / 1000) - 60 }), /expired/],
      [await sign({ permissions: ['billing:reader'] }, { secret: 'another-secret-that-is-also-32-bytes-long' }), /signature does not verify/],
      [await sign({ permissions: ['billing:reader'] }, { issuer: 'https://evil.example' }), /claim 'iss'/],
      [`${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x","permissions":["*:admin"]}').toString('base64url')}.`, /algorithm none is not accepted/],
      ['not-a-jwt', /not a JWT/],
    ];
    for (const [bearer, why] of cases) {
      const answer = await get(NAMESPACES, { authorization: `Bearer ${bearer}` });
      assert.equal(answer.status, 401, bearer);
      assert.match(answer.message!, why);
    }
    const basic = await get(NAMESPACES, { authorization: 'Basic YWxpY2U6c2VjcmV0' });
    assert.equal(basic.status, 401);
    assert.match(basic.message!, /must be 'Bearer <token>'/);
  });

  test('a token without exp or without sub is refused with 401 naming the claim, however well signed', async () => {
    const key = new TextEncoder().encode(SECRET);
    const forever = await new SignJWT({ permissions: ['*:admin'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setIssuer('https://login.example').sign(key);
    const nobody = await new SignJWT({ permissions: ['*:admin'] }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').setIssuer('https://login.example').sign(key);
    for (const [bearer, claim] of [[forever, 'exp'], [nobody, 'sub']] as const) {
      const answer = await get(NAMESPACES, { authorization: `Bearer ${bearer}` });
      assert.equal(answer.status, 401);
      assert.match(answer.message!, new RegExp(`no '${claim}' claim`));
    }
  });

  test('an HS256 token whose secret is the JWKS public key (algorithm confusion) is refused with 401', async () => {
    const publicPem = new TextEncoder().encode(await exportSPKI(rsa.publicKey));
    const confused = await new SignJWT({ permissions: ['*:admin'] }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).setSubject('mallory').setIssuer('https://login.example').setExpirationTime('5m').sign(publicPem);
    const answer = await get(NAMESPACES, { authorization: `Bearer ${confused}` });
    assert.equal(answer.status, 401);
    assert.match(answer.message!, /signature does not verify/);
  });

  test('a valid token whose claims cannot be read is refused with 403 naming the claim', async () => {
    const answer = await get(NAMESPACES, { authorization: `Bearer ${await sign({ permissions: 'billing:reader' })}` });
    assert.equal(answer.status, 403);
    assert.match(answer.message!, /claim 'permissions' must be an array/);
    const unknownRole = await get(NAMESPACES, { authorization: `Bearer ${await sign({ permissions: ['billing:owner'] })}` });
    assert.match(unknownRole.message!, /unknown role 'owner'/);
    const inherited = await get(NAMESPACES, { authorization: `Bearer ${await sign({ permissions: ['billing:constructor'] })}` });
    assert.match(inherited.message!, /unknown role 'constructor'/);
  });

  test('403 names the role needed and what the caller holds', async () => {
    const response = await fetch(`${base}${NAMESPACES}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await sign({ permissions: ['billing:reader'] })}` }, body: '{}' });
    const json = (await response.json()) as { code: string; message: string };
    assert.equal(response.status, 403);
    assert.equal(json.code, 'PERMISSION_DENIED');
    assert.match(json.message, /'alice' may not POST .*needs the writer role in namespace billing \(permission "billing:writer"\), and holds billing:reader/);
  });

  test('the namespace list shows a caller only the namespaces it may read', async () => {
    for (const name of ['billing', 'shipping']) {
      await fetch(`${base}/api/v1/namespaces`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await sign({ permissions: ['*:admin'] })}` }, body: JSON.stringify({ name }) });
    }
    const response = await fetch(`${base}/api/v1/namespaces`, { headers: { authorization: `Bearer ${await sign({ permissions: ['billing:reader'] })}` } });
    const names = ((await response.json()) as { namespaces: Array<{ name: string }> }).namespaces.map((n) => n.name);
    assert.deepEqual(names, ['billing']);
  });
});

describe('a worker token and run histories', () => {
  test("a worker reads the history of its queue's runs, and is refused another queue's with 403", async () => {
    const writer = await sign({ permissions: ['billing:writer'] });
    for (const [workflowId, taskQueue] of [['on-orders', 'orders'], ['on-payroll', 'payroll']]) {
      const started = await fetch(`${base}${NAMESPACES}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${writer}` }, body: JSON.stringify({ workflowId, workflowType: 'w', taskQueue }) });
      assert.equal(started.status, 201);
    }
    const worker = { authorization: `Bearer ${await sign({ taskQueues: ['billing:orders'] })}` };
    assert.equal((await get(`${NAMESPACES}/on-orders/history`, worker)).status, 200);
    const other = await get(`${NAMESPACES}/on-payroll/history`, worker);
    assert.equal(other.status, 403);
    assert.match(other.message!, /on task queue payroll/);
  });
});

describe("a namespace's rate limit", () => {
  test('callers with no right in a namespace are refused without spending its rate budget', async () => {
    const admin = { 'content-type': 'application/json', authorization: `Bearer ${await sign({ permissions: ['*:admin'] })}` };
    const registered = await fetch(`${base}/api/v1/namespaces`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'limited', apiCallsPerSecond: 1 }) });
    assert.equal(registered.status, 201, await registered.text());
    const stranger = { authorization: `Bearer ${await sign({ permissions: ['shipping:admin'] })}` };
    for (let i = 0; i < 5; i++) assert.equal((await get('/api/v1/namespaces/limited/workflows', stranger)).status, 403);
    const owner = await get('/api/v1/namespaces/limited/workflows', { authorization: `Bearer ${await sign({ permissions: ['limited:reader'] })}` });
    assert.equal(owner.status, 200, owner.message);
  });
});

describe("a namespace's settings", () => {
  test("a namespace's admin changes its description but not its limits, retention or state, which need *:admin", async () => {
    const put = async (permissions: string[], body: unknown) => {
      const response = await fetch(`${base}/api/v1/namespaces/limited`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${await sign({ permissions })}` }, body: JSON.stringify(body) });
      return { status: response.status, message: ((await response.json()) as { message?: string }).message ?? '' };
    };
    assert.equal((await put(['limited:admin'], { description: 'ours' })).status, 200);
    const lifted = await put(['limited:admin'], { apiCallsPerSecond: 1000, retention: '3650d' });
    assert.equal(lifted.status, 403);
    assert.match(lifted.message, /may not change retention, apiCallsPerSecond of namespace limited/);
    assert.equal((await put(['*:admin'], { apiCallsPerSecond: 5 })).status, 200);
  });
});

describe('calls between nodes', () => {
  test("a peer credential signed with another deployment's key, or for another path, is refused with 401", async () => {
    const forged = new PeerCalls().headers('GET', `${base}${NAMESPACES}`);
    assert.equal((await get(NAMESPACES, forged)).status, 401);
    const ours = engine.peers.headers('GET', `${base}/api/v1/namespaces/billing/workflow-count`);
    const answer = await get(NAMESPACES, ours);
    assert.equal(answer.status, 401);
    assert.match(answer.message!, /issued for GET \/api\/v1\/namespaces\/billing\/workflow-count, not this call/);
    assert.equal((await get(NAMESPACES, engine.peers.headers('GET', `${base}${NAMESPACES}`))).status, 200);
  });

  test('a peer credential sent again with another body, or a task token passed off as one, is refused with 401', async () => {
    const url = `${base}/api/v1/namespaces/billing/workflows/w-1/terminate`;
    const made = JSON.stringify({ reason: 'as the first node authorised' });
    const headers = { 'content-type': 'application/json', ...engine.peers.headers('POST', url, undefined, made) };
    const replayed = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ reason: 'something else' }) });
    assert.equal(replayed.status, 401);
    assert.match(((await replayed.json()) as { message: string }).message, /issued for another body/);
    const taskToken = new TokenSigner(Buffer.alloc(32, 7)).sign('eyJ3b3JrZmxvd0lkIjoidyJ9');
    assert.equal((await get(NAMESPACES, { 'x-logbook-peer': taskToken })).status, 401);
  });
});

describe('flags', () => {
  test('auth settings without --auth, --auth without a way in, and a short secret are refused naming the flag', () => {
    assert.throws(() => authOptionsFromFlags({ 'auth-jwt-secret': SECRET }, false), /--auth-jwt-secret needs --auth/);
    assert.throws(() => authOptionsFromFlags({ auth: true }, false), /--auth needs a way to authenticate/);
    assert.throws(() => authOptionsFromFlags({ auth: true, 'auth-jwt-secret': 'short' }, false), /at least 32 bytes, got 5/);
    assert.throws(() => authOptionsFromFlags({ auth: true, 'auth-mtls-principals': '/nonexistent.json' }, false), /needs --tls-client-ca/);
    assert.equal(authOptionsFromFlags({}, false), undefined);
  });
});

describe('grants', () => {
  test('roles include the weaker ones, * covers every namespace, and worker covers every queue of its namespace', () => {
    const grants = grantsOf({ permissions: ['billing:write', 'shipping:worker', 'ops:reader', 'ops:admin'], taskQueues: ['hr:payroll'] });
    assert.ok(hasRole(grants, 'billing', 'reader') && hasRole(grants, 'billing', 'writer') && !hasRole(grants, 'billing', 'admin'));
    assert.ok(hasRole(grants, 'ops', 'admin'), 'the stronger of two roles in one namespace holds');
    assert.ok(!hasRole(grants, 'shipping', 'reader'), 'worker is not a reader');
    assert.ok(mayServeQueue(grants, 'shipping', 'any') && mayServeQueue(grants, 'hr', 'payroll') && !mayServeQueue(grants, 'hr', 'bonus') && !mayServeQueue(grants, 'billing', 'x'));
    const everything = grantsOf({ permissions: ['*:admin'] });
    assert.ok(hasRole(everything, 'anything', 'admin') && mayServeQueue(everything, 'anything', 'q'));
    assert.throws(() => grantsOf({ taskQueues: ['nocolon'] }), /not a "namespace:value" string/);
  });
});

describe('client certificates (mTLS)', () => {
  let https: Server;
  let port: number;
  let pki: TestPki;

  before(async () => {
    pki = await createTestPki(join(directory, 'pki'), { clients: ['billing-worker', 'stranger'], selfSigned: { rogue: 'billing-worker' } });
    const principals = pki.path('principals.json');
    await writeFile(principals, JSON.stringify({ 'billing-worker': { permissions: ['billing:reader'] } }));
    const tls = listenerTlsFromFlags({ 'tls-cert': pki.path('server.pem'), 'tls-key': pki.path('server.key'), 'tls-client-ca': pki.path('ca.pem') })!;
    const auth = authOptionsFromFlags({ auth: true, 'auth-mtls-principals': principals }, tls.clientCertificates)!;
    https = await serveHttpsGateway(engine, tls, { auth });
    port = (https.address() as { port: number }).port;
  });
  after(() => {
    https.closeAllConnections();
    https.close();
  });

  const call = (path: string, who?: string) =>
    new Promise<{ status: number; message: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, ca: pki.pem['ca.pem'], ...(who ? { cert: pki.pem[`${who}.pem`], key: pki.pem[`${who}.key`] } : {}) }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, message: (JSON.parse(body || '{}') as { message?: string }).message ?? '' }));
      });
      req.on('error', reject);
      req.end();
    });

  test("a certificate of the client CA whose subject is in the principals file gets its roles; others are refused", async () => {
    assert.equal((await call(NAMESPACES, 'billing-worker')).status, 200);
    assert.equal((await call('/api/v1/namespaces/shipping/workflows', 'billing-worker')).status, 403);
    const stranger = await call(NAMESPACES, 'stranger');
    assert.equal(stranger.status, 403);
    assert.match(stranger.message, /no entry in the principals file/);
    const rogue = await call(NAMESPACES, 'rogue');
    assert.equal(rogue.status, 401);
    assert.match(rogue.message, /client certificate was refused/);
    const none = await call(NAMESPACES);
    assert.equal(none.status, 401);
    assert.match(none.message, /or a client certificate/);
  });
});
