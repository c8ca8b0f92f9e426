import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { record, withDefault } from '../schemas/avro-schema.js';
import { visibilityRowFieldsV1 } from '../schemas/visibility-row/v1.js';
import { defineSchema } from '../schemas/define-schema.js';
import { parseAvroType } from './avro-type.js';
import { DecodeError, DecodeErrorCode } from './decode-error.js';
import { historyEventCodec, shardPositionsCodec, visibilityRowCodec } from './record-codecs.js';
import { RegistrySerde } from './registry-serde.js';
import { topicRecordNameStrategy, type SchemaRegistryClient } from './schema-registry-client.js';
import { SchemaRegistryError } from './schema-registry-error.js';
import { SingleObjectSerde } from './single-object-serde.js';
import { timerFiredEvent } from './test-values.js';
import { frameConfluent } from './wire-format.js';

// In-memory stand-in for the registry's two operations (no real registry runs here).
class FakeRegistry implements SchemaRegistryClient {
  readonly subjects = new Map<string, number[]>();
  readonly schemas = new Map<number, string>();
  registerCalls = 0;
  getSchemaCalls = 0;
  outage: SchemaRegistryError | undefined;

  async register(subject: string, schemaJson: string): Promise<number> {
    this.registerCalls++;
    if (this.outage) throw this.outage;
    let id = [...this.schemas].find(([, json]) => json === schemaJson)?.[0];
    if (id === undefined) {
      id = this.schemas.size + 1;
      this.schemas.set(id, schemaJson);
    }
    this.subjects.set(subject, [...(this.subjects.get(subject) ?? []), id]);
    return id;
  }

  async getSchema(id: number): Promise<unknown> {
    this.getSchemaCalls++;
    if (this.outage) throw this.outage;
    const json = this.schemas.get(id);
    if (json === undefined) throw new SchemaRegistryError(`schema ${id} not found`, 404);
    return JSON.parse(json);
  }
}

const visibilityRowV1 = {
  namespace: 'default', workflowId: 'w', runId: 'r', workflowType: 't', taskQueue: 'q', status: 'Running',
  startTime: 1, closeTime: null, executionTime: 1, historyLength: 3, memo: {}, searchAttributes: {},
} as const;

describe('RegistrySerde', () => {
  it('registers the latest schema under <topic>-value once and frames values with its id', async () => {
    const registry = new FakeRegistry();
    const serde = new RegistrySerde({ client: registry });
    const [a, b] = await Promise.all([
      serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history'),
      serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history'),
    ]);
    assert.equal(registry.registerCalls, 1);
    assert.deepEqual([...registry.subjects.keys()], ['logbook.history-value']);
    assert.equal(a?.[0], 0x00);
    assert.equal(a?.readUInt32BE(1), 1);
    assert.deepEqual(a, b);
    assert.deepEqual(a?.subarray(5), historyEventCodec.encodeBody(timerFiredEvent));
  });

  it('decodes its own output, fetching each writer schema once', async () => {
    const registry = new FakeRegistry();
    const serde = new RegistrySerde({ client: registry });
    const bytes = await serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history');
    assert.deepStrictEqual(await serde.decode(historyEventCodec, bytes), timerFiredEvent);
    await serde.decode(historyEventCodec, bytes);
    assert.equal(registry.getSchemaCalls, 1);
  });

  it('also decodes single-object bytes, so a topic can switch formats', async () => {
    const serde = new RegistrySerde({ client: new FakeRegistry() });
    const bytes = new SingleObjectSerde().encodeSync(historyEventCodec, timerFiredEvent);
    assert.deepStrictEqual(await serde.decode(historyEventCodec, bytes), timerFiredEvent);
  });

  it('names subjects by topic and record for topics that carry two records', async () => {
    const registry = new FakeRegistry();
    const serde = new RegistrySerde({ client: registry, subjectStrategy: topicRecordNameStrategy });
    await serde.encode(shardPositionsCodec, { positions: [] }, 'logbook.state');
    assert.deepEqual([...registry.subjects.keys()], ['logbook.state-logbook.ShardPositions']);
  });

  it('reports a registry outage as retriable and retries on the next record', async () => {
    const registry = new FakeRegistry();
    const serde = new RegistrySerde({ client: registry });
    registry.outage = new SchemaRegistryError('unavailable', 503);
    await assert.rejects(serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history'), (err: unknown) => {
      return err instanceof SchemaRegistryError && err.retriable;
    });
    registry.outage = undefined;
    const bytes = await serde.encode(historyEventCodec, timerFiredEvent, 'logbook.history');
    registry.outage = new SchemaRegistryError('unavailable', 503);
    const other = new RegistrySerde({ client: registry });
    await assert.rejects(other.decode(historyEventCodec, bytes), (err: unknown) => !(err instanceof DecodeError));
  });

  it('rejects a schema id the registry does not know as undecodable', async () => {
    const serde = new RegistrySerde({ client: new FakeRegistry() });
    await assert.rejects(serde.decode(historyEventCodec, frameConfluent(42, Buffer.from([0]))), {
      code: DecodeErrorCode.UnknownSchemaId,
    });
  });

  it('rejects a value whose writer schema is another record', async () => {
    const serde = new RegistrySerde({ client: new FakeRegistry() });
    const bytes = await serde.encode(shardPositionsCodec, { positions: [] }, 'logbook.state');
    await assert.rejects(serde.decode(historyEventCodec, bytes), { code: DecodeErrorCode.WrongRecord });
  });

  it('reads an older registered version with the latest reader', async () => {
    const registry = new FakeRegistry();
    const id = await registry.register('logbook.visibility-value', JSON.stringify(visibilityRowCodec.version(1).schema));
    const bytes = frameConfluent(id, visibilityRowCodec.encodeBodyAs(1, visibilityRowV1));
    const serde = new RegistrySerde({ client: registry });
    assert.deepStrictEqual(await serde.decode(visibilityRowCodec, bytes), { ...visibilityRowV1, historySizeBytes: 0 });
  });

  it('reads a newer writer schema this code has never seen, if it resolves to the latest', async () => {
    const registry = new FakeRegistry();
    const future = defineSchema(record('logbook.VisibilityRow', [
      ...visibilityRowFieldsV1,
      withDefault('historySizeBytes', 'long', 0),
      withDefault('rootWorkflowId', ['null', 'string'], null),
    ]));
    const id = await registry.register('logbook.visibility-value', JSON.stringify(future));
    const body = parseAvroType(future).toBuffer({ ...visibilityRowV1, historySizeBytes: 9, rootWorkflowId: 'root' });
    const serde = new RegistrySerde({ client: registry });
    assert.deepStrictEqual(await serde.decode(visibilityRowCodec, frameConfluent(id, body)), {
      ...visibilityRowV1,
      historySizeBytes: 9,
    });
  });
});
