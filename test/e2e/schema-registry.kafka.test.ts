/**
 * The schema-registry mode against a real registry (Apicurio Registry, Confluent-compatible API,
 * started by the test command beside the broker): an engine in the Confluent wire format
 * registers every fixed topic's schema at start-up under Logbook's subject names, runs a workflow
 * whose records carry registry ids, and a second engine process-alike (a fresh serde with an
 * empty cache) reads them back through the registry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
