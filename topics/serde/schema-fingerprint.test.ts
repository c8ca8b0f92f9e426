import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsingCanonicalForm } from './canonical-form.js';
import { crc64Avro, crc64AvroEmpty } from './crc64-avro.js';
import { formatFingerprint, schemaFingerprint } from './schema-fingerprint.js';

// Vectors from the Avro project's shared test data (share/test/data/schema-tests.txt), which the
// Java implementation cross-checks against a direct implementation of the algorithm.
// [input schema, canonical form, fingerprint as Java's signed long (null = not listed)]
const vectors: readonly [string, string, bigint | null][] = [
  ['"null"', '"null"', 7195948357588979594n],
  ['{"type":"null"}', '"null"', null],
  ['"boolean"', '"boolean"', -6970731678124411036n],
  ['{"type":"boolean"}', '"boolean"', null],
  ['"int"', '"int"', 8247732601305521295n],
  ['{"type":"int"}', '"int"', null],
  ['"long"', '"long"', -3434872931120570953n],
  ['"float"', '"float"', 5583340709985441680n],
  ['"double"', '"double"', -8181574048448539266n],
  ['"bytes"', '"bytes"', 5746618253357095269n],
  ['"string"', '"string"', -8142146995180207161n],
  ['{"type":"string"}', '"string"', null],
  ['[  ]', '[]', -1241056759729112623n],
  ['[ "int"  ]', '["int"]', -5232228896498058493n],
  ['[ "int" , {"type":"boolean"} ]', '["int","boolean"]', 5392556393470105090n],
  ['{"fields":[], "type":"record", "name":"foo"}', '{"name":"foo","type":"record","fields":[]}', -4824392279771201922n],
  [
    '{"fields":[], "type":"record", "name":"foo", "namespace":"x.y"}',
    '{"name":"x.y.foo","type":"record","fields":[]}',
    5916914534497305771n,
  ],
  [
    '{"fields":[], "type":"record", "name":"a.b.foo", "namespace":"x.y"}',
    '{"name":"a.b.foo","type":"record","fields":[]}',
    -4616218487480524110n,
  ],
  [
    '{"fields":[], "type":"record", "name":"foo", "doc":"Useful info"}',
    '{"name":"foo","type":"record","fields":[]}',
    -4824392279771201922n,
  ],
  [
    '{"fields":[], "type":"record", "name":"foo", "doc":"foo", "aliases":["foo","bar"]}',
    '{"name":"foo","type":"record","fields":[]}',
    -4824392279771201922n,
  ],
  [
    '{"fields":[{"type":{"type":"boolean"}, "name":"f1"}], "type":"record", "name":"foo"}',
    '{"name":"foo","type":"record","fields":[{"name":"f1","type":"boolean"}]}',
    7843277075252814651n,
  ],
  [
    '{ "fields":[{"type":"boolean", "aliases":[], "name":"f1", "default":"true"},\n' +
      '{"order":"descending","name":"f2","doc":"Hello","type":"int"}], "type":"record", "name":"foo" }',
    '{"name":"foo","type":"record","fields":[{"name":"f1","type":"boolean"},{"name":"f2","type":"int"}]}',
    -4860222112080293046n,
  ],
  ['{"type":"enum", "name":"foo", "symbols":["A1"]}', '{"name":"foo","type":"enum","symbols":["A1"]}', -6342190197741309591n],
  [
    '{"namespace":"x.y.z", "type":"enum", "name":"foo", "doc":"foo bar", "symbols":["A1", "A2"]}',
    '{"name":"x.y.z.foo","type":"enum","symbols":["A1","A2"]}',
    -4448647247586288245n,
  ],
  ['{"name":"foo","type":"fixed","size":15}', '{"name":"foo","type":"fixed","size":15}', 1756455273707447556n],
  [
    '{"namespace":"x.y.z", "type":"fixed", "name":"foo", "doc":"foo bar", "size":32}',
    '{"name":"x.y.z.foo","type":"fixed","size":32}',
    -3064184465700546786n,
  ],
  ['{ "items":{"type":"null"}, "type":"array"}', '{"type":"array","items":"null"}', -589620603366471059n],
  ['{ "values":"string", "type":"map"}', '{"type":"map","values":"string"}', -8732877298790414990n],
  [
    '{"name":"PigValue","type":"record", "fields":[{"name":"value", "type":["null", "int", "long", "PigValue"]}]}',
    '{"name":"PigValue","type":"record","fields":[{"name":"value","type":["null","int","long","PigValue"]}]}',
    -1759257747318642341n,
  ],
];

describe('CRC-64-AVRO', () => {
  it('gives the specified empty fingerprint for no input', () => {
    assert.equal(crc64Avro(''), crc64AvroEmpty);
  });

  for (const [input, canonical, fingerprint] of vectors) {
    it(`reduces ${input.replace(/\s+/g, ' ')} to its canonical form${fingerprint === null ? '' : ' and fingerprint'}`, () => {
      assert.equal(parsingCanonicalForm(input), canonical);
      if (fingerprint !== null) {
        assert.equal(schemaFingerprint(input), BigInt.asUintN(64, fingerprint));
        assert.equal(BigInt.asIntN(64, crc64Avro(canonical)), fingerprint);
      }
    });
  }

  it('treats a bare type name as that type', () => {
    assert.equal(parsingCanonicalForm('int'), '"int"');
  });

  it('writes a repeated named type once, then by full name, and drops logical types', () => {
    const schema = {
      type: 'record',
      name: 'R',
      namespace: 'a',
      fields: [
        { name: 'x', type: { type: 'enum', name: 'E', symbols: ['A'] } },
        { name: 'y', type: 'E' },
        { name: 't', type: { type: 'long', logicalType: 'timestamp-millis' } },
      ],
    };
    assert.equal(
      parsingCanonicalForm(schema),
      '{"name":"a.R","type":"record","fields":[{"name":"x","type":{"name":"a.E","type":"enum","symbols":["A"]}},' +
        '{"name":"y","type":"a.E"},{"name":"t","type":"long"}]}',
    );
  });

  it('formats fingerprints as 16 hex digits', () => {
    assert.equal(formatFingerprint(schemaFingerprint('"string"')), '8f014872634503c7');
    assert.equal(formatFingerprint(1n), '0000000000000001');
  });
});
