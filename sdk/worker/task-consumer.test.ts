import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLog } from '../../topics/log/open-log.js';
import type { Log } from '../../topics/log/log.js';
import { waitFor } from '../../test/support/test-env.js';
import { TaskConsumer } from './task-consumer.js';
import { TaskHandedBackError } from './task-handed-back-error.js';

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

test('a task its handler hands back unanswered is never committed past: the next member of the group receives it', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-task-consumer-'));
  const log = await openLog({ kind: 'embedded', directory });
  const topic = 'tasks';
  await log.admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
  await (await log.producer()).send(['poison', 'unanswered', 'answered'].map((v) => ({ topic, key: v, value: Buffer.from(v) })));
  const errors: string[] = [];
  const first = new TaskConsumer({
    log, topic, groupId: 'workers', identity: 'w1', maxConcurrent: 4, ordered: false,
    onError: (error) => errors.push((error as Error).message),
    handle: async (record, signal) => {
      const value = record.value!.toString();
      if (value === 'poison') throw new Error('does not decode');
      if (value !== 'unanswered') return;
      // Its answer cannot be written until the worker stops: then it is handed back.
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      throw new TaskHandedBackError('the completion could not be written');
    },
  });
  const handled: string[] = [];
  const second = new TaskConsumer({
    log, topic, groupId: 'workers', identity: 'w2', maxConcurrent: 4, ordered: true,
    handle: async (record) => void handled.push(record.value!.toString()),
  });
  try {
    await first.start();
    await waitFor('the poison record to be reported', () => errors.length === 1, 10_000);
    await first.stop(1_000);
    await second.start();
    await waitFor('the tasks after the last answered one to come back', () => handled.length === 2, 10_000);
    assert.deepEqual(handled, ['unanswered', 'answered'], 'the unanswered task comes back; the undecodable record before it does not');
    assert.deepEqual(errors, ['does not decode']);
  } finally {
    await second.stop(1_000);
    await log.close();
    await rm(directory, { recursive: true, force: true });
  }
});
