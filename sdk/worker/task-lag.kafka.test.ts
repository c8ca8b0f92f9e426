import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openLog } from '../../topics/log/open-log.js';
import { kafkaBrokers, uniqueName, waitFor } from '../../test/support/test-env.js';
import { TaskConsumer } from './task-consumer.js';

test('idle task partitions written by transactions report lag 0, in the metric and in the committed offsets monitoring tools read', async () => {
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
  const topic = uniqueName('tasks');
  const partitions = 3;
  await log.admin.createTopics([{ name: topic, partitions, replicationFactor: 1, config: {} }]);
  // As a shard writes tasks: each in a transaction, which leaves a commit marker behind it.
  const producer = await log.transactionalProducer(uniqueName('shard'));
  for (let i = 0; i < 6; i++) {
    const tx = await producer.begin();
    await tx.send([{ topic, partition: i % partitions, key: `k${i}`, value: Buffer.from(`task-${i}`) }]);
    await tx.commit();
  }
  const lags = new Map<number, number>();
  const handled: string[] = [];
  const groupId = uniqueName('workers');
  const consumer = new TaskConsumer({
    log, topic, groupId, identity: 'w1', maxConcurrent: 4, ordered: false,
    handle: async (record) => void handled.push(record.value!.toString()),
    onLag: (_topic, partition, lag) => lags.set(partition, lag),
  });
  try {
    await consumer.start();
    await waitFor('every task to run', () => handled.length === 6, 30_000);
    await waitFor('a lag of 0 on every partition', () => lags.size === partitions && [...lags.values()].every((l) => l === 0), 30_000);
    const committed = await waitFor('committed offsets past the commit markers', async () => {
      const offsets = await log.admin.groupOffsets(groupId, topic);
      for (let p = 0; p < partitions; p++) if (offsets.get(p) !== (await log.endOffset(topic, p))) return undefined;
      return offsets;
    }, 30_000);
    // Two tasks per partition, each followed by its marker: the end is 4, not 2.
    assert.deepEqual([...committed.values()], [4, 4, 4]);
  } finally {
    await consumer.stop(1_000);
    await producer.close();
    await log.close();
  }
});
