import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../topics/validation/index.js';
import { parseIngressMappings } from './ingress-mapping.js';
import { asText, fieldAt, MissingValueError, valueAt } from './value-source.js';

const base = { name: 'orders', sourceTopic: 'shop.orders', action: 'start', workflowId: { from: 'key' }, workflowType: 'order', taskQueue: 'orders' };
const parse = (fields: Record<string, unknown>, readSchema: (p: string) => unknown = () => ({ type: 'string' })) =>
  parseIngressMappings({ mappings: [fields] }, readSchema)[0]!;
const refused = (fields: Record<string, unknown>, rule: RegExp) =>
  assert.throws(() => parse(fields), (error: unknown) => error instanceof InvalidArgumentError && rule.test(error.message), `refused with ${rule}`);

test('a minimal start mapping gets the documented defaults: JSON values, namespace default, the whole value as the one argument, Fail and AllowDuplicate', () => {
  const m = parse(base);
  assert.equal(m.format, 'json');
  assert.equal(m.namespace, 'default');
  assert.deepEqual(m.args, [{ from: 'value' }]);
  assert.deepEqual(m.workflowType, { const: 'order' });
  assert.equal(m.workflowIdConflictPolicy, 'Fail');
  assert.equal(m.workflowIdReusePolicy, 'AllowDuplicate');
  assert.equal(m.deadLetterTopic, null);
});

test('each broken option is refused with a message naming the mapping and the rule', () => {
  refused({ ...base, action: 'launch' }, /ingress mapping 'orders': action must be one of start, signalWithStart, signal/);
  refused({ ...base, name: 'has space' }, /name 'has space' may contain only/);
  refused({ ...base, sourceTopic: 'bad topic!' }, /sourceTopic 'bad topic!' is not a Kafka topic name/);
  refused({ ...base, sourceTopic: 't'.repeat(250) }, /not a Kafka topic name \(1–249/);
  refused({ ...base, sourceTopic: '..' }, /not a Kafka topic name/);
  refused({ ...base, workflowId: undefined }, /'workflowId' is required/);
  refused({ ...base, workflowId: { field: 'a..b' } }, /dotted path/);
  refused({ ...base, workflowId: { from: 'header' } }, /workflowId.from must be 'key' or 'value'/);
  refused({ ...base, workflowId: { field: 'a', from: 'key' } }, /exactly one of/);
  refused({ ...base, workflowType: undefined }, /'workflowType' is required for action 'start'/);
  refused({ ...base, action: 'signal', workflowType: undefined, taskQueue: undefined }, /'signalName' is required for action 'signal'/);
  refused({ ...base, action: 'signal', signalName: 'paid' }, /'workflowType' has no use for action 'signal'/);
  refused({ ...base, signalName: 'paid' }, /no use for action 'start'/);
  refused({ ...base, args: { from: 'value' } }, /args must be an array/);
  refused({ ...base, workflowIdConflictPolicy: 'FAIL' }, /workflowIdConflictPolicy must be one of Fail, UseExisting, TerminateExisting/);
  refused({ ...base, format: 'xml' }, /format must be one of json, avro/);
  refused({ ...base, format: 'avro' }, /'avroSchemaFile' is required for format 'avro'/);
  refused({ ...base, avroSchemaFile: 'x.avsc' }, /only for formats 'avro' and 'avro-registry'/);
  refused({ ...base, schemaRegistry: 'http://registry:8081' }, /'schemaRegistry' is only for format 'avro-registry'/);
  refused({ ...base, format: 'avro-registry', schemaRegistry: 'registry:8081' }, /schemaRegistry must be an http\(s\) URL/);
  assert.equal(parseIngressMappings({ mappings: [{ ...base, format: 'avro-registry' }] }, () => null)[0]!.avroSchema, null, 'a registry source needs no reader schema');
  refused({ ...base, deadLetterTopic: 'shop.orders' }, /deadLetterTopic must differ from sourceTopic/);
  refused({ ...base, sourceTopc: 'typo' }, /unknown option 'sourceTopc'/);
  assert.throws(() => parseIngressMappings({ mappings: [base, base] }, () => null), /names must be unique: 'orders' appears twice/);
  assert.throws(() => parseIngressMappings({ mapping: [] }, () => null), /"mappings" array/);
  assert.throws(() => parseIngressMappings(null, () => null), /"mappings" array/);
});

test('an Avro schema file that cannot be read, or is not a schema, is refused at load, naming the file and the cause', () => {
  assert.throws(
    () => parse({ ...base, format: 'avro', avroSchemaFile: 'missing.avsc' }, () => { throw new Error('ENOENT: no such file'); }),
    /avroSchemaFile 'missing.avsc' cannot be read: ENOENT/,
  );
  assert.throws(() => parse({ ...base, format: 'avro', avroSchemaFile: 'odd.avsc' }, () => ({ type: 'record' })), /avroSchemaFile 'odd.avsc' is not an Avro schema/);
});

test('value sources read the key, the whole value, dotted fields through arrays, headers and constants, and name what is missing', () => {
  const parts = { key: 'k1', value: { order: { items: [{ sku: 'book' }] }, n: 7 }, headers: { origin: Buffer.from('shop') } };
  assert.equal(valueAt({ from: 'key' }, parts), 'k1');
  assert.equal(valueAt({ field: 'order.items.0.sku' }, parts), 'book');
  assert.equal(valueAt({ header: 'origin' }, parts), 'shop');
  assert.equal(valueAt({ const: 3 }, parts), 3);
  assert.deepEqual(valueAt({ from: 'value' }, parts), parts.value);
  assert.throws(() => fieldAt(parts.value, 'order.customer.id'), (e: unknown) => e instanceof MissingValueError && /no field 'order.customer'/.test((e as Error).message));
  assert.throws(() => fieldAt('a string', 'length'), /no field 'length'/, 'fields of non-objects are not read (no prototype properties)');
  assert.throws(() => fieldAt({}, 'constructor'), /no field 'constructor'/);
  assert.throws(() => valueAt({ from: 'key' }, { ...parts, key: null }), /no key/);
  assert.throws(() => valueAt({ header: 'trace' }, parts), /no header 'trace'/);
  assert.equal(asText(7, 'the workflow id'), '7');
  assert.throws(() => asText('', 'the workflow id'), /the workflow id is empty/);
  assert.throws(() => asText({ id: 1 }, 'the workflow id'), /must be a string or a number, got object/);
  assert.throws(() => asText(Number.NaN, 'the workflow id'), /must be a string or a number/);
});
