import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { DEAD_LETTER_MAX_VALUE_BYTES, DeadLetterHeaders } from '../../topics/dead-letter.js';
import { ShardState, type ShardTransition } from '../../processors/shard-runtime/shard-lifecycle.js';
import { deadLetters } from '../conformance/poison-inputs-conformance.js';
import { startTestEngine } from '../support/test-engine.js';
import { kafkaBrokers, waitFor } from '../support/test-env.js';

test('a 3 MB random record produced straight into the command topic is dead-lettered with a bounded prefix, and its shard never leaves RUNNING', async () => {
  const transitions: ShardTransition[] = [];
  const t = await startTestEngine('kafka', { shards: 2, workers: false, engine: { onShardTransition: (tr) => transitions.push(tr) } });
  // A plain Kafka producer, as any client of the cluster: the topic takes records up to its max.message.bytes.
  const producer = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  try {
    const before = transitions.length;
    const value = randomBytes(3 * 1024 * 1024);
    await producer.send({ topic: t.engine.catalog.commands, messages: [{ key: 'default/huge', value }] });
    const [dead] = await waitFor('the record dead-lettered', async () => ((await deadLetters(t)).length > 0 ? deadLetters(t) : undefined), 60_000);
    assert.equal(dead!.value!.length, DEAD_LETTER_MAX_VALUE_BYTES);
    assert.deepEqual(dead!.value!.subarray(0, 32), value.subarray(0, 32));
    assert.match(dead!.headers[DeadLetterHeaders.truncated]!.toString(), /value 3145728 bytes/);
    assert.ok(dead!.headers[DeadLetterHeaders.code], 'the dead letter names its code');
    const shard = t.engine.catalog.shardOf('default', 'huge');
    assert.deepEqual(transitions.slice(before).map((m) => `${m.shard}:${m.to}`), [], 'no shard left RUNNING');
    assert.equal(t.engine.node.shardReports().find((r) => r.shard === shard)?.state, ShardState.Running);
  } finally {
    await producer.disconnect();
    await t.stop();
  }
});
