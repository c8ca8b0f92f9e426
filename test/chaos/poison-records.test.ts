import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partitionForKey } from '../../topics/partitioner.js';
import { commandCodec, readSingleObject, SingleObjectSerde } from '../../topics/serde/index.js';
import { POISON_KINDS, poisonRecord, poisonSchedule } from './poison-records.js';
import { seededRandom } from './seeded-random.js';

const SHARDS = 8;
const serde = new SingleObjectSerde();

test('a schedule as long as the list of kinds sends every kind, the 3 MiB record exactly once', () => {
  const kinds = poisonSchedule(POISON_KINDS.length);
  assert.deepEqual(new Set(kinds), new Set(POISON_KINDS));
  assert.equal(poisonSchedule(60).filter((k) => k === 'random-3mb').length, 1);
  assert.deepEqual(poisonSchedule(0), []);
});

test('every kind builds a record for a partition of the command topic', () => {
  const random = seededRandom(7);
  for (const kind of POISON_KINDS) {
    const record = poisonRecord(kind, random, SHARDS);
    assert.equal(record.kind, kind);
    assert.ok(Number.isInteger(record.partition) && record.partition >= 0 && record.partition < SHARDS, `${kind}: partition ${record.partition}`);
    assert.ok(record.note.length > 0, `${kind} says what is wrong with it`);
  }
});

test("random Avro poison is a valid command in the serde's single-object framing, keyed by its own namespace and workflow id", () => {
  const random = seededRandom(11);
  for (let i = 0; i < 20; i++) {
    const record = poisonRecord('random-avro', random, SHARDS);
    const { fingerprint, body } = readSingleObject(record.value!);
    assert.equal(fingerprint, commandCodec.latest.fingerprint);
    const value = commandCodec.latest.type.fromBuffer(body) as { namespace: string; workflowId: string };
    assert.equal(record.key!.toString(), `${value.namespace}/${value.workflowId}`);
  }
});

test('the invalid-name poisons decode as starts carrying exactly the names the engine must refuse', () => {
  const random = seededRandom(3);
  const decoded = (kind: 'namespace-dot' | 'namespace-traversal' | 'task-queue-traversal') => serde.decodeSync(commandCodec, poisonRecord(kind, random, SHARDS).value!);
  assert.equal(decoded('namespace-dot').namespace, 'a.b');
  assert.equal(decoded('namespace-traversal').namespace, '..%2F..%2Fetc');
  const start = decoded('task-queue-traversal').body;
  assert.equal(start.type, 'StartWorkflowExecution');
  assert.equal(start.type === 'StartWorkflowExecution' && start.taskQueue, '../../q');
});

test('a wrong-shard poison is a valid command produced to another partition than its key hashes to', () => {
  const random = seededRandom(5);
  for (let i = 0; i < 20; i++) {
    const record = poisonRecord('wrong-shard', random, SHARDS);
    assert.notEqual(record.partition, partitionForKey(record.key!, SHARDS));
    assert.equal(serde.decodeSync(commandCodec, record.value!).body.type, 'SignalWorkflowExecution');
  }
});

test('the oversized kinds have the sizes they claim: a 3 MiB value, a 2.5 MiB argument, a 1 MiB key, an empty key and value', () => {
  const random = seededRandom(9);
  const mib = 1024 * 1024;
  assert.equal(poisonRecord('random-3mb', random, SHARDS).value!.length, 3 * mib);
  assert.ok(poisonRecord('oversized-payload', random, SHARDS).value!.length > 2.5 * mib);
  assert.equal(poisonRecord('huge-key', random, SHARDS).key!.length, mib);
  assert.equal(poisonRecord('empty-key', random, SHARDS).key!.length, 0);
  assert.equal(poisonRecord('null-key', random, SHARDS).key, null);
  assert.equal(poisonRecord('empty-value', random, SHARDS).value!.length, 0);
});
