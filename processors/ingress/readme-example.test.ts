import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { commandCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import { parseIngressMappings } from './ingress-mapping.js';
import { RecordMapper } from './record-mapper.js';

test('the README ingress example loads, and a record keyed 42 starts workflow order-42 of type order with the value as its one argument', async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Ingress from business topics'));
  const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(example, 'the section has a JSON example');
  const [mapping] = parseIngressMappings(JSON.parse(example), () => null);
  const serde = new SingleObjectSerde();
  const mapper = new RecordMapper(mapping!, { commandTopic: 'logbook.commands', deadLetterTopic: 'logbook.ingress.orders.dlq', maxRecordBytes: 1 << 20, serde, dataConverter: defaultDataConverter });
  const value = { orderId: '42', sku: 'book' };
  const mapped = await mapper.map({ topic: 'shop.orders', partition: 0, offset: 0, key: Buffer.from('42'), value: Buffer.from(JSON.stringify(value)), headers: {}, timestamp: 0 });
  assert.equal(mapped.kind, 'command');
  const command = await serde.decode(commandCodec, mapped.record.value!);
  assert.equal(command.workflowId, 'order-42');
  assert.ok(command.body.type === 'StartWorkflowExecution');
  assert.equal(command.body.workflowType, 'order');
  assert.deepEqual(command.body.input.map((p) => defaultDataConverter.fromPayload(p)), [value]);
});
