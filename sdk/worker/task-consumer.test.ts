import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLog } from '../../topics/log/open-log.js';
import type { Log } from '../../topics/log/log.js';
import { waitFor } from '../../test/support/test-env.js';
import { TaskConsumer } from './task-consumer.js';

test('a partition whose positions cannot be read at first is retried and its tasks still run', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-task-consumer-'));
  const log = await openLog({ kind: 'embedded', directory });
  let failures = 3;
  // The first reads of the end offset fail, as a broker blip would make them.
  const flaky: Log = Object.assign(Object.create(log) as Log, {
    endOffset: (topic: string, partition: number) => (failures-- > 0 ? Promise.reject(new Error('broker blip')) : log.endOffset(topic, partition)),
  });
  const topic = 'tasks';
  await log.admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
  const handled: string[] = [];
  const consumer = new TaskConsumer({
    log: flaky, topic, groupId: 'workers', identity: 'w1', maxConcurrent: 4, ordered: false,
    handle: async (record) => void handled.push(record.value!.toString()),
  });
  try {
    await consumer.start();
    await (await log.producer()).send([{ topic, key: 'k', value: Buffer.from('task-1') }]);
    await waitFor('the task to run', () => handled.length === 1, 10_000);
    assert.deepEqual(handled, ['task-1']);
    assert.ok(failures < 0, 'the failing reads happened');
  } finally {
    await consumer.stop(1_000);
    await log.close();
    await rm(directory, { recursive: true, force: true });
  }
});
