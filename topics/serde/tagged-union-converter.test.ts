import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaCatalog, type RecordName } from '../schemas/schema-catalog.js';
import { parseAvroType } from './avro-type.js';
import { RecordCodec } from './record-codec.js';
import { TaggedUnionConverter } from './tagged-union-converter.js';

describe('TaggedUnionConverter', () => {
  // Without the HistoryEvent hook, so avsc's random eventType values are not rejected.
  const converter = new TaggedUnionConverter();

  for (const name of Object.keys(schemaCatalog) as RecordName[]) {
    it(`turns random ${name} records into TypeScript values and back, byte for byte`, () => {
      const codec = new RecordCodec<unknown>(schemaCatalog[name], converter);
      const { type } = codec.latest;
      for (let i = 0; i < 30; i++) {
        const bytes = type.toBuffer(type.random());
        const value = codec.decodeBody(bytes, codec.latest);
        assert.deepEqual(codec.encodeBody(value), bytes);
      }
    });
  }

  it('turns a union of records into { type, …fields } and back', () => {
    const type = parseAvroType({
      type: 'record',
      name: 'logbook.T',
      fields: [{ name: 'u', type: [
        { type: 'record', name: 'logbook.AEventAttributes', fields: [{ name: 'x', type: 'int' }] },
        { type: 'record', name: 'logbook.BEventAttributes', fields: [] },
      ] }],
    });
    const avroValue = { u: { 'logbook.AEventAttributes': { x: 1 } } };
    const tsValue = converter.fromAvro(type, type.fromBuffer(type.toBuffer(avroValue)));
    assert.deepStrictEqual(tsValue, { u: { type: 'A', x: 1 } });
    assert.deepStrictEqual(converter.toAvro(type, tsValue), avroValue);
  });

  it('refuses union branches that do not follow the naming convention', () => {
    const type = parseAvroType([
      { type: 'record', name: 'logbook.A', fields: [] },
      { type: 'record', name: 'logbook.B', fields: [] },
    ]);
    assert.throws(() => converter.toAvro(type, null), /not a record named/);
  });

  it('refuses unwrapped unions other than ["null", X]', () => {
    const type = parseAvroType(['null', 'string', 'int']);
    assert.throws(() => converter.fromAvro(type, 'x'), /only \["null", X\]/);
  });
});
