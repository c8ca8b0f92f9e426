import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { addressOf, serveGateway } from '../test/support/http-gateway.js';
import { startRequest } from '../sdk/client/start-options.js';
import { defaultDataConverter } from '../topics/payload/index.js';
import type { Payload } from '../topics/payload/payload.js';
import { Engine } from './engine.js';
import { stopTaskBridges } from './task-endpoints/task-bridges.js';

/**
 * The namespace payload guards through the gateway (issue 15, parts 3 and 5), on the embedded
 * backend with no workers: the namespace API takes and checks the two lists, and a start the
 * engine refuses is a 400 naming the rule.
 */

type Answer = { status: number; json: Record<string, unknown> & { code?: string; message?: string } };

let directory: string;
let engine: Engine;
let server: Server;
let base: string;

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json().catch(() => ({}))) as Answer['json'] };
}

function refused(answer: Answer, code: string, message: RegExp): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.json));
  assert.equal(answer.json.code, code);
  assert.match(answer.json.message ?? '', message);
}

const encrypted: Payload = { metadata: { encoding: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from('k-1') }, data: Buffer.from([0x9c, 0x01, 0xfe, 0x42]) };
const workflowId = () => `w-${randomUUID()}`;

before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-payload-guards-'));
  engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2 });
  server = await serveGateway(engine);
  base = addressOf(server);
  const registered = await call('POST', '/api/v1/namespaces', { name: 'billing', codecRequiredTaskQueues: ['orders'], refusedSearchAttributes: ['CustomerEmail'] });
  assert.equal(registered.status, 201, JSON.stringify(registered.json));
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(engine);
  await engine.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('namespace payload guards through the gateway', () => {
  test('describe shows both lists, and an update replaces one and keeps the other', async () => {
    const described = await call('GET', '/api/v1/namespaces/billing');
    assert.deepEqual([described.json.codecRequiredTaskQueues, described.json.refusedSearchAttributes], [['orders'], ['CustomerEmail']]);
    const updated = await call('PATCH', '/api/v1/namespaces/shipping', {});
    assert.equal(updated.status, 404);
    await call('POST', '/api/v1/namespaces', { name: 'shipping', codecRequiredTaskQueues: ['parcels'] });
    const changed = await call('PATCH', '/api/v1/namespaces/shipping', { refusedSearchAttributes: ['Address'] });
    assert.deepEqual([changed.json.codecRequiredTaskQueues, changed.json.refusedSearchAttributes], [['parcels'], ['Address']]);
  });

  test('register and update refuse a list that is not an array of valid names, or too long, with a 400 naming the field', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ codecRequiredTaskQueues: 'orders' }, /^'codecRequiredTaskQueues' must be an array of names, got string/],
      [{ codecRequiredTaskQueues: { 0: 'orders', length: 1 } }, /^'codecRequiredTaskQueues' must be an array of names, got object/],
      [{ refusedSearchAttributes: [['Email']] }, /^'refusedSearchAttributes'\[0\] \(a search attribute name\) must be a non-empty string/],
      [{ codecRequiredTaskQueues: ['orders', null] }, /^'codecRequiredTaskQueues'\[1\] .* must be a non-empty string/],
      [{ codecRequiredTaskQueues: ['../etc'] }, /'codecRequiredTaskQueues'\[0\] .* may contain only letters, digits/],
      [{ refusedSearchAttributes: Array.from({ length: 50_000 }, (_, i) => `Attribute${i}`) }, /^'refusedSearchAttributes' has 50000 entries; at most 100 are allowed/],
    ];
    for (const [body, message] of bad) {
      refused(await call('PATCH', '/api/v1/namespaces/billing', body), 'INVALID_ARGUMENT', message);
      refused(await call('POST', '/api/v1/namespaces', { name: `ns${randomUUID().slice(0, 8)}`, ...(body as object) }), 'INVALID_ARGUMENT', message);
    }
    const described = await call('GET', '/api/v1/namespaces/billing');
    assert.deepEqual(described.json.codecRequiredTaskQueues, ['orders'], 'a refused update changed nothing');
  });

  test('a plaintext start on a codec-required task queue is a 400 naming the rule, and nothing is started', async () => {
    const id = workflowId();
    const answer = await call('POST', '/api/v1/namespaces/billing/workflows', { workflowId: id, workflowType: 'invoice', taskQueue: 'orders', args: [{ customer: 'Ada' }] });
    refused(answer, 'PlaintextPayloadRefused', /^task queue orders of namespace billing requires encrypted payloads \(codec-required\); StartWorkflowExecution of .*: payload input\[0\] is json\/plain/);
    assert.equal((await call('GET', `/api/v1/namespaces/billing/workflows/${id}`)).status, 404);
    const other = await call('POST', '/api/v1/namespaces/billing/workflows', { workflowId: workflowId(), workflowType: 'invoice', taskQueue: 'reports', args: [{ customer: 'Ada' }] });
    assert.equal(other.status, 201, 'another queue of the namespace takes plaintext');
  });

  test('a plaintext signal-with-start on the queue is a 400 too', async () => {
    const answer = await call('POST', `/api/v1/namespaces/billing/workflows/${workflowId()}/signal-with-start`, { workflowType: 'invoice', taskQueue: 'orders', signalName: 'pay', signalArgs: ['card 4111'] });
    refused(answer, 'PlaintextPayloadRefused', /requires encrypted payloads \(codec-required\)/);
  });

  test('a start whose payloads are encrypted (encoding binary/encrypted, any bytes) is accepted on the queue', async () => {
    const id = workflowId();
    const start = { ...startRequest({ namespace: 'billing', workflowId: id, workflowType: 'invoice', taskQueue: 'orders' }, defaultDataConverter, 'test'), input: [encrypted] };
    const reply = await engine.client.send(engine.client.envelope('billing', id, { type: 'StartWorkflowExecution', ...start }), { awaitReply: true });
    assert.equal(reply?.kind, 'StartAccepted', JSON.stringify(reply?.failure));
    const described = await call('GET', `/api/v1/namespaces/billing/workflows/${id}`);
    assert.equal(described.status, 200);
  });

  test('over HTTP, an encrypted argument sent as a { $payload } envelope is accepted on the queue', async () => {
    const $payload = { metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: Buffer.from('any ciphertext').toString('base64') };
    const answer = await call('POST', '/api/v1/namespaces/billing/workflows', { workflowId: workflowId(), workflowType: 'invoice', taskQueue: 'orders', args: [{ $payload }] });
    assert.equal(answer.status, 201, JSON.stringify(answer.json));
  });

  test('a start with a refused search attribute is a 400 naming the attribute and the rule', async () => {
    const answer = await call('POST', '/api/v1/namespaces/billing/workflows', {
      workflowId: workflowId(), workflowType: 'invoice', taskQueue: 'reports', searchAttributes: { CustomerEmail: { type: 'Keyword', value: 'ada@example.com' } },
    });
    refused(answer, 'SearchAttributeRefused', /search attribute CustomerEmail is refused by namespace billing \(refusedSearchAttributes\): search attributes are stored in plain text/);
  });

  describe('schedules', () => {
    const $payload = { metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: Buffer.from('any ciphertext').toString('base64') };
    const schedule = (namespace: string, action: object) => {
      const scheduleId = `s-${randomUUID().slice(0, 8)}`;
      return { scheduleId, create: () => call('POST', `/api/v1/namespaces/${namespace}/schedules`, { scheduleId, spec: { cronExpressions: ['0 0 1 1 *'] }, action: { workflowType: 'invoice', ...action } }) };
    };

    test('creating or updating a schedule whose action has plaintext args or memo for a codec-required queue is a 400 naming the rule, before anything is stored', async () => {
      const plain = schedule('billing', { taskQueue: 'orders', args: [{ customer: 'Ada' }] });
      refused(await plain.create(), 'PlaintextPayloadRefused',
        new RegExp(`^task queue orders of namespace billing requires encrypted payloads \\(codec-required\\); the action of schedule ${plain.scheduleId} \\(started at every firing\\): payload action\\.args\\[0\\] is json/plain`));
      refused(await schedule('billing', { taskQueue: 'orders', args: [{ $payload }], memo: { customer: 'Ada' } }).create(), 'PlaintextPayloadRefused', /payload action\.memo\.customer is json\/plain/);
      refused(await call('PUT', `/api/v1/namespaces/billing/schedules/${plain.scheduleId}`, { spec: { cronExpressions: ['0 0 1 1 *'] }, action: { workflowType: 'invoice', taskQueue: 'orders', args: ['Ada'] } }),
        'PlaintextPayloadRefused', /payload action\.args\[0\] is json\/plain/);
      const sealed = await call('POST', '/api/v1/namespaces/billing/schedules', { scheduleId: plain.scheduleId, spec: { cronExpressions: ['0 0 1 1 *'] }, action: { workflowType: 'invoice', taskQueue: 'orders', args: [{ $payload }], memo: { customer: { $payload } } } });
      assert.equal(sealed.status, 201, `encrypted args and memo are taken, and the refused create stored nothing: ${JSON.stringify(sealed.json)}`);
      assert.equal((await schedule('billing', { taskQueue: 'reports', args: [{ customer: 'Ada' }] }).create()).status, 201, 'another queue of the namespace takes plaintext');
    });

    test("with * a schedule with encrypted args is created (the internal scheduler queue is left out of *), and plaintext args for the target are refused", async () => {
      assert.equal((await call('POST', '/api/v1/namespaces', { name: 'vault', codecRequiredTaskQueues: ['*'] })).status, 201);
      const created = await schedule('vault', { taskQueue: 'documents', args: [{ $payload }] }).create();
      assert.equal(created.status, 201, JSON.stringify(created.json));
      refused(await schedule('vault', { taskQueue: 'documents', args: ['Ada'] }).create(), 'PlaintextPayloadRefused', /^task queue documents of namespace vault requires encrypted payloads \(codec-required\); .*payload action\.args\[0\] is json\/plain/);
    });
  });
});
