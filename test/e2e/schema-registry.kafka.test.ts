/**
 * The schema-registry mode against a real registry (Apicurio Registry, Confluent-compatible API,
 * started by the test command beside the broker): an engine in the Confluent wire format
 * registers every fixed topic's schema at start-up under Logbook's subject names, runs a workflow
 * whose records carry registry ids, and a second engine process-alike (a fresh serde with an
 * empty cache) reads them back through the registry; an ingress source in the registry's wire
 * format starts workflows, its values resolved to the mapping's reader schema.
 */

const INGRESS_WORKFLOWS = fileURLToPath(new URL('../workflows/ingress.ts', import.meta.url));
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import avro from 'avsc';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import { ingressCaughtUp } from '../conformance/ingress-conformance.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { confluentSchemaRegistryClient, detectWireFormat, historyEventCodec, logbookSubjectStrategy, readConfluent, RegistrySerde, WireFormat } from '../../topics/serde/index.js';
import { readAll } from '../conformance/log-conformance.js';
import { startTestEngine } from '../support/test-engine.js';

function registryUrl(): string {
  const url = process.env.LOGBOOK_TEST_SCHEMA_REGISTRY_URL;
  if (!url) throw new Error('LOGBOOK_TEST_SCHEMA_REGISTRY_URL is not set: run the registry tests through `npm test`, which starts Apicurio Registry beside the broker');
  return url;
}

const registrySerde = (url: string) => new RegistrySerde({ client: confluentSchemaRegistryClient({ url }), subjectStrategy: logbookSubjectStrategy });

test('an engine in registry mode registers its schemas at start-up, runs a workflow in the Confluent wire format, and its records decode through the registry alone', async () => {
  const url = registryUrl();
  const progress: string[] = [];
  const t = await startTestEngine('kafka', { shards: 2, engine: { serde: registrySerde(url), onProgress: (line) => progress.push(line) } });
  try {
    const prefix = t.engine.catalog.prefix;
    const subjects = (await (await fetch(`${url}/subjects`)).json()) as string[];
    for (const subject of [`${prefix}.commands-value`, `${prefix}.history-value`, `${prefix}.replies-value`, `${prefix}.state-logbook.MutableStateSnapshot`, `${prefix}.state-logbook.ShardPositions`, `${prefix}.visibility-value`, `${prefix}.namespaces-value`]) {
      assert.ok(subjects.includes(subject), `${subject} is registered: ${subjects.filter((s) => s.startsWith(prefix)).join(', ')}`);
    }
    assert.ok(progress.some((l) => new RegExp(`^schema registry: logbook\\.HistoryEvent v1 under subject ${prefix.replace(/\./g, '\\.')}\\.history-value \\(id \\d+\\)$`).test(l)), progress.join('\n'));

    await t.start('bookTrip', 'travel', 'trip-registry', [{ tripId: 'trip-registry' }]);
    const reply = await t.result('trip-registry');
    assert.equal(reply.executionStatus, 'Completed', JSON.stringify(reply.failure));

    const records = (await Promise.all([0, 1].map((p) => readAll(t.engine.log, t.engine.catalog.history, p)))).flat();
    const trip = records.filter((r) => r.key?.toString().startsWith('default/trip-registry/'));
    assert.ok(trip.length >= 10, `the trip's history: ${trip.length} events`);
    const fresh = registrySerde(url);
    for (const record of trip) {
      assert.equal(detectWireFormat(record.value!), WireFormat.Confluent, 'every history value is in the Confluent wire format');
      const { schemaId } = readConfluent(record.value!);
      const schema = (await (await fetch(`${url}/schemas/ids/${schemaId}`)).json()) as { schema: string };
      const writer = JSON.parse(schema.schema) as { name: string; namespace?: string };
      assert.equal(writer.name.includes('.') ? writer.name : `${writer.namespace}.${writer.name}`, 'logbook.HistoryEvent');
      const event = await fresh.decode(historyEventCodec, record.value!);
      assert.equal(event.workflowId, 'trip-registry');
    }
  } finally {
    await t.stop();
  }
});

test("an ingress source in the registry's wire format starts workflows with values resolved to the mapping's reader schema, and dead-letters unknown schema ids and unframed values", async () => {
  const url = registryUrl();
  const queue = uniqueName('registry-ingress');
  const t = await startTestEngine('kafka', { shards: 2, workers: false, extraWorkers: [{ taskQueue: queue, workflowsPath: INGRESS_WORKFLOWS }], engine: { serde: registrySerde(url) } });
  const server = await serveGateway(t.engine);
  try {
    const source = uniqueName('shop-orders');
    await t.engine.log.admin.createTopics([{ name: source, partitions: 1, replicationFactor: 1, config: { 'cleanup.policy': 'delete' } }]);
    // The business's producer registers its schema (v1) as a Confluent serializer would.
    const v1 = { type: 'record', name: 'Order', namespace: 'com.example.shop', fields: [{ name: 'orderId', type: 'string' }, { name: 'amountCents', type: 'long' }] };
    const registered = await fetch(`${url}/subjects/${source}-value/versions`, { method: 'POST', headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' }, body: JSON.stringify({ schema: JSON.stringify(v1) }) });
    const { id } = (await registered.json()) as { id: number };
    const frame = (schemaId: number, body: Buffer) => Buffer.concat([Buffer.from([0]), Buffer.from([(schemaId >>> 24) & 255, (schemaId >>> 16) & 255, (schemaId >>> 8) & 255, schemaId & 255]), body]);
    const type = avro.Type.forSchema(v1 as avro.Schema);
    const producer = await t.engine.log.producer();
    await producer.send([
      { topic: source, key: 'r1', value: frame(id, type.toBuffer({ orderId: 'r1', amountCents: 100 })) },
      { topic: source, key: 'unknown-id', value: frame(987_654, type.toBuffer({ orderId: 'x', amountCents: 1 })) },
      { topic: source, key: 'unframed', value: Buffer.from('{"orderId":"y"}') },
      { topic: source, key: 'r2', value: frame(id, type.toBuffer({ orderId: 'r2', amountCents: 200 })) },
    ]);
    // The workflow reads a newer shape: a currency with a default, which v1 records resolve to.
    const reader = { ...v1, fields: [...v1.fields, { name: 'currency', type: 'string', default: 'EUR' }] };
    const mapping = { sourceTopic: source, format: 'avro-registry', avroSchema: reader, action: 'start', workflowId: { field: 'orderId' }, workflowType: 'acceptOrder', taskQueue: queue };
    const put = await fetch(`${addressOf(server)}/api/v1/ingress/registry-orders`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
    assert.equal(put.status, 201, await put.clone().text());

    await ingressCaughtUp(t.engine.log, t.engine.catalog.ingressNames('registry-orders').groupId, source, 1);
    for (const [workflowId, amountCents] of [['r1', 100], ['r2', 200]] as const) {
      await waitFor(`${workflowId} to start`, async () => (await t.engine.describe('default', workflowId)) !== null);
      const reply = await t.result(workflowId);
      assert.deepEqual(t.engine.dataConverter.fromPayload(reply.payload!), { orderId: workflowId, amountCents, currency: 'EUR' });
    }
    const letters = await readAll(t.engine.log, t.engine.catalog.ingressNames('registry-orders').deadLetter, 0);
    const reasons = letters.map((l) => l.headers[DeadLetterHeaders.reason]!.toString()).sort();
    assert.equal(letters.length, 2, reasons.join(' | '));
    assert.match(reasons.join(' | '), /schema id 987654, which the registry does not have/);
    assert.match(reasons.join(' | '), /not in the Confluent wire format/);
  } finally {
    server.closeAllConnections();
    server.close();
    await t.stop();
  }
});
