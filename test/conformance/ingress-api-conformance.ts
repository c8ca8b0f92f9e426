import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { ingressCaughtUp } from './ingress-conformance.js';

/** Ingress mappings created, replaced and deleted through the HTTP API, on one backend. */

const INGRESS_WORKFLOWS = fileURLToPath(new URL('../workflows/ingress.ts', import.meta.url));

/** Registers the ingress API tests for one backend. */
export function ingressApiConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let api: string;
  const queue = uniqueName('ingress-api');

  before(async () => {
    t = await startTestEngine(backend, { workers: false, extraWorkers: [{ taskQueue: queue, workflowsPath: INGRESS_WORKFLOWS }] });
    server = await serveGateway(t.engine);
    api = `${addressOf(server)}/api/v1/ingress`;
  });
  after(async () => {
    server?.closeAllConnections();
    server?.close();
    await t?.stop();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };
  const listed = async () => ((await send('GET', '')).json!.mappings as Array<{ name: string; origin: string; running: boolean; definition?: unknown }>);
  const completedWith = async (workflowId: string): Promise<unknown> => {
    await waitFor(`${workflowId} to be started`, async () => (await t.engine.describe('default', workflowId)) !== null);
    const reply = await t.result(workflowId);
    assert.equal(reply.executionStatus, 'Completed', `${workflowId} completed: ${reply.failure?.message ?? ''}`);
    return t.engine.dataConverter.fromPayload(reply.payload!);
  };

  test('a mapping created with PUT starts workflows from its topic; replaced, it goes on from the committed position with the new definition; deleted, it stops', async () => {
    const log = t.engine.log;
    const source = uniqueName('api-orders');
    await log.admin.createTopics([{ name: source, partitions: 2, replicationFactor: 1, config: { 'cleanup.policy': 'delete' } }]);
    const name = uniqueName('api-map');
    const definition = { sourceTopic: source, action: 'start', workflowId: { from: 'key' }, workflowIdPrefix: 'v1-', workflowType: 'acceptOrder', taskQueue: queue };
    const created = await send('PUT', `/${name}`, definition);
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json!.origin, 'api');
    await waitFor(`${name} to run`, async () => (await listed()).find((m) => m.name === name)?.running === true);

    const producer = await log.producer();
    await producer.send([{ topic: source, key: 'a', value: Buffer.from(JSON.stringify({ orderId: 'a', amountCents: 1 })) }]);
    assert.deepEqual(await completedWith('v1-a'), { orderId: 'a', amountCents: 1 });

    const replaced = await send('PUT', `/${name}`, { ...definition, workflowIdPrefix: 'v2-' });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.json));
    assert.deepEqual((replaced.json!.definition as { workflowIdPrefix: string }).workflowIdPrefix, 'v2-');
    await producer.send([{ topic: source, key: 'b', value: Buffer.from(JSON.stringify({ orderId: 'b', amountCents: 2 })) }]);
    assert.deepEqual(await completedWith('v2-b'), { orderId: 'b', amountCents: 2 });
    assert.equal(await t.engine.describe('default', 'v2-a'), null, 'the record read under v1 is not read again');

    assert.equal((await send('DELETE', `/${name}`)).status, 204);
    await waitFor(`${name} to stop`, async () => !(await listed()).some((m) => m.name === name));
    const groupId = t.engine.catalog.ingressNames(name).groupId;
    await ingressCaughtUp(log, groupId, source, 2);
    await producer.send([{ topic: source, key: 'c', value: Buffer.from(JSON.stringify({ orderId: 'c', amountCents: 3 })) }]);
    await new Promise((r) => setTimeout(r, 3_000));
    assert.equal(await t.engine.describe('default', 'v2-c'), null, 'a deleted mapping starts nothing');
  });

  test('the API refuses what a mapping may not be, naming the rule, and stores nothing', async () => {
    const source = uniqueName('api-refused');
    await t.engine.log.admin.createTopics([{ name: source, partitions: 1, replicationFactor: 1, config: { 'cleanup.policy': 'delete' } }]);
    const good = { sourceTopic: source, action: 'start', workflowId: { from: 'key' }, workflowType: 'acceptOrder', taskQueue: queue };
    const cases: Array<[string, unknown, RegExp]> = [
      ['an unknown action', { ...good, action: 'explode' }, /action/],
      ['a missing source topic', { ...good, sourceTopic: uniqueName('nowhere') }, /source topic '.*' does not exist/],
      ['a name in the body that is not the path', { ...good, name: 'other' }, /the body names mapping 'other' but the path names/],
      ['a schema file on the server', { ...good, format: 'avro', avroSchemaFile: '/etc/passwd' }, /writer schema inline as 'avroSchema'/],
      ['an inline schema that is no Avro schema', { ...good, format: 'avro', avroSchema: { type: 'record' } }, /avroSchema is not an Avro schema/],
      ['an engine topic as dead-letter topic', { ...good, deadLetterTopic: t.engine.catalog.commands }, /one of the engine's topics/],
      ["the engine's own command topic as source", { ...good, sourceTopic: t.engine.catalog.commands }, /sourceTopic '.*' is one of the engine's .* or Kafka's internal .* topics/],
      ["Kafka's internal offsets topic as source", { ...good, sourceTopic: '__consumer_offsets' }, /Kafka's internal \('__\*'\) topics/],
      ['an oversized definition', { ...good, signalArgs: undefined, workflowIdPrefix: 'x'.repeat(300 * 1024) }, /at most 256 KiB/],
      ['not an object', [good], /one ingress mapping as a JSON object/],
    ];
    for (const [what, body, message] of cases) {
      const refused = await send('PUT', '/refused-map', body);
      assert.equal(refused.status, 400, `${what}: ${JSON.stringify(refused.json)}`);
      assert.match(String(refused.json!.message), message, what);
    }
    const badName = await send('PUT', '/has.dots', good);
    assert.equal(badName.status, 400, JSON.stringify(badName.json));
    assert.equal((await send('DELETE', '/never-created')).status, 404);
    assert.ok(!(await listed()).some((m) => m.name === 'refused-map'), 'nothing refused is stored');

    const avro = await send('PUT', '/inline-avro', { ...good, format: 'avro', avroSchema: { type: 'record', name: 'Order', fields: [{ name: 'orderId', type: 'string' }] } });
    assert.equal(avro.status, 201, JSON.stringify(avro.json));
    assert.equal((await send('DELETE', '/inline-avro')).status, 204);
  });
}
