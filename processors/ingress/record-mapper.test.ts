import { test } from 'node:test';
import assert from 'node:assert/strict';
import avro from 'avsc';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import type { LogRecord } from '../../topics/log/log.js';
import { defaultDataConverter, type Payload } from '../../topics/payload/index.js';
import { commandCodec, frameSingleObject, schemaFingerprint, SingleObjectSerde } from '../../topics/serde/index.js';
import { parseIngressMappings } from './ingress-mapping.js';
import { RecordMapper, runIdFor } from './record-mapper.js';

const serde = new SingleObjectSerde();
const target = { commandTopic: 'lb.commands', deadLetterTopic: 'lb.ingress.orders.dlq', maxRecordBytes: 64 * 1024, serde, dataConverter: defaultDataConverter };
const schema = { type: 'record', name: 'Order', fields: [{ name: 'orderId', type: 'string' }, { name: 'photo', type: 'bytes' }] };
const mapperFor = (fields: Record<string, unknown>) => new RecordMapper(parseIngressMappings({ mappings: [{ name: 'orders', sourceTopic: 'shop.orders', action: 'start', workflowId: { field: 'orderId' }, workflowType: 'order', taskQueue: 'orders', ...fields }] }, () => schema)[0]!, target);
const record = (value: Buffer | null, offset = 5): LogRecord => ({ topic: 'shop.orders', partition: 2, offset, key: Buffer.from('k'), value, headers: {}, timestamp: 0 });

test('a record becomes a start command keyed by its workflow, with request id topic/partition/offset and a run id derived from it', async () => {
  const mapped = await mapperFor({}).map(record(Buffer.from(JSON.stringify({ orderId: 'o1' }))));
  assert.equal(mapped.kind, 'command');
  assert.equal(mapped.record.key, 'default/o1');
  const command = await serde.decode(commandCodec, mapped.record.value!);
  assert.equal(command.requestId, 'shop.orders/2/5');
  assert.equal(command.body.type, 'StartWorkflowExecution');
  assert.equal((command.body as { runId: string }).runId, runIdFor('shop.orders/2/5'));
  assert.match(runIdFor('shop.orders/2/5'), /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(runIdFor('shop.orders/2/5'), runIdFor('shop.orders/2/6'));
});

test('a value whose command would exceed the record limit is dead-lettered (its copy cut to a prefix), not sent', async () => {
  const mapped = await mapperFor({}).map(record(Buffer.from(JSON.stringify({ orderId: 'big', blob: 'x'.repeat(200_000) }))));
  assert.equal(mapped.kind, 'deadLetter');
  assert.equal(mapped.code, 'INGRESS_TOO_LARGE');
  assert.match(mapped.record.headers![DeadLetterHeaders.reason]!.toString(), /over the limit of 65536/);
  assert.ok(mapped.record.headers![DeadLetterHeaders.truncated], 'the dead letter says it kept only a prefix');
});

test('Avro single-object values decode with the mapping schema (bytes become base64); another fingerprint, a torn body or JSON are dead-lettered', async () => {
  const mapper = mapperFor({ format: 'avro', avroSchemaFile: 'order.avsc', args: [{ field: 'photo' }] });
  const type = avro.Type.forSchema(schema as avro.Schema);
  const fingerprint = schemaFingerprint(schema);
  const good = await mapper.map(record(frameSingleObject(fingerprint, type.toBuffer({ orderId: 'a1', photo: Buffer.from([1, 2, 3]) }))));
  assert.equal(good.kind, 'command');
  const command = await serde.decode(commandCodec, good.record.value!);
  assert.equal(defaultDataConverter.fromPayload((command.body as unknown as { input: Payload[] }).input[0]!), Buffer.from([1, 2, 3]).toString('base64'));
  const reasons = [];
  for (const value of [
    frameSingleObject(fingerprint + 1n, type.toBuffer({ orderId: 'a2', photo: Buffer.alloc(0) })),
    frameSingleObject(fingerprint, Buffer.from([0x04, 0x61])),
    Buffer.from('{"orderId":"a3"}'),
  ]) {
    const mapped = await mapper.map(record(value));
    assert.equal(mapped.kind, 'deadLetter');
    assert.equal(mapped.code, 'INGRESS_DECODE');
    reasons.push(mapped.record.headers![DeadLetterHeaders.reason]!.toString());
  }
  assert.match(reasons[0]!, /schema fingerprint [0-9a-f]{16}, not the mapping's/);
  assert.match(reasons[1]!, /does not decode with the mapping's Avro schema/);
  assert.match(reasons[2]!, /not Avro single-object encoded/);
});
