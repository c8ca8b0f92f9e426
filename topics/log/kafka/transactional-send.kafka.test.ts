import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RECORD_BYTES } from '../../catalog.js';
import { commitLikeAShard, committedKeyCounts } from '../../../test/support/exactly-once.js';
import { produceFaults } from '../../../test/support/produce-faults.js';
import { kafkaBrokers, uniqueName } from '../../../test/support/test-env.js';
import { KafkaLog } from './kafka-log.js';

const REQUEST_TIMEOUT_MS = 2_000;

test('a transactional produce answered only after the request timeout (the broker had appended it) leaves each record once in the committed topic', { timeout: 60_000 }, async (t) => {
  const topic = uniqueName('eos-timeout');
  const transactionalId = uniqueName('eos-timeout-tx');
  const faults = produceFaults([{ transactionalId, times: 1, action: { kind: 'delay', delayMs: REQUEST_TIMEOUT_MS + 1_500 } }]);
  const faulty = new KafkaLog({
    brokers: kafkaBrokers(),
    clientId: uniqueName('faulty'),
    maxRecordBytes: MAX_RECORD_BYTES,
    faults: { socketFactory: faults.socketFactory, requestTimeoutMs: REQUEST_TIMEOUT_MS },
  });
  const reader = new KafkaLog({ brokers: kafkaBrokers(), clientId: uniqueName('reader'), maxRecordBytes: MAX_RECORD_BYTES });
  try {
    await reader.admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
    // The three events of the breach seen under fault injection: one workflow, one partition, one batch.
    const records = [21, 22, 23].map((id) => ({ topic, partition: 0, key: `wf-1/run-1/${id}`, value: Buffer.from(`event ${id}`) }));
    const { attempts } = await commitLikeAShard(faulty, transactionalId, records);
    t.diagnostic(`attempts: ${attempts.map((a) => (a === 'committed' ? a : a.message)).join(' | ')}`);
    t.diagnostic(`produce requests: ${JSON.stringify(faults.requests.map((r) => r.batches))}`);

    assert.equal(faults.injected.length, 1, 'the produce response was withheld past the request timeout');
    assert.deepEqual(await committedKeyCounts(reader, topic, [0], records.map((r) => r.key)), { 'wf-1/run-1/21': 1, 'wf-1/run-1/22': 1, 'wf-1/run-1/23': 1 });
  } finally {
    await faulty.close();
    await reader.admin.deleteTopics([topic]).catch(() => undefined);
    await reader.close();
  }
});

test('on a one-broker cluster a transaction writes records for several topics and partitions in one Produce request, each once', { timeout: 60_000 }, async () => {
  const [history, state] = [uniqueName('one-send-history'), uniqueName('one-send-state')];
  const transactionalId = uniqueName('one-send-tx');
  const watch = produceFaults([{ transactionalId, times: 0, action: { kind: 'drop' } }]);
  const log = new KafkaLog({ brokers: kafkaBrokers(), clientId: uniqueName('one-send'), maxRecordBytes: MAX_RECORD_BYTES, faults: { socketFactory: watch.socketFactory } });
  try {
    assert.equal(await log.admin.brokerCount(), 1, 'this test needs the one-broker cluster the test command starts');
    await log.admin.createTopics([
      { name: history, partitions: 2, replicationFactor: 1, config: {} },
      { name: state, partitions: 2, replicationFactor: 1, config: {} },
    ]);
    const records = [
      { topic: history, partition: 1, key: 'h1', value: Buffer.from('h1') },
      { topic: history, partition: 1, key: 'h2', value: Buffer.from('h2') },
      { topic: state, partition: 1, key: 's1', value: Buffer.from('s1') },
      { topic: history, partition: 0, key: 'h3', value: Buffer.from('h3') },
    ];
    const { attempts } = await commitLikeAShard(log, transactionalId, records);
    assert.deepEqual(attempts, ['committed']);
    assert.equal(watch.requests.length, 1, `Produce requests: ${JSON.stringify(watch.requests.map((r) => r.batches))}`);
    assert.deepEqual(await committedKeyCounts(log, history, [0, 1], ['h1', 'h2', 'h3']), { h1: 1, h2: 1, h3: 1 });
    assert.deepEqual(await committedKeyCounts(log, state, [1], ['s1']), { s1: 1 });
  } finally {
    await log.admin.deleteTopics([history, state]).catch(() => undefined);
    await log.close();
  }
});

test('one producer commits fifty back-to-back transactions over several partitions: the CONCURRENT_TRANSACTIONS right after a commit is tried again, not taken for an unknown outcome', { timeout: 120_000 }, async () => {
  const topic = uniqueName('back-to-back');
  const log = new KafkaLog({ brokers: kafkaBrokers(), clientId: uniqueName('back-to-back'), maxRecordBytes: MAX_RECORD_BYTES });
  const producer = await (async () => {
    await log.admin.createTopics([{ name: topic, partitions: 3, replicationFactor: 1, config: {} }]);
    return log.transactionalProducer(uniqueName('back-to-back-tx'));
  })();
  try {
    const keys: string[] = [];
    for (let i = 0; i < 50; i++) {
      const records = [0, 1, 2].map((p) => ({ topic, partition: p, key: `t${i}-p${p}`, value: Buffer.from(`transaction ${i}`) }));
      keys.push(...records.map((r) => r.key));
      const tx = await producer.begin();
      await tx.send(records);
      await tx.commit();
    }
    const counts = await committedKeyCounts(log, topic, [0, 1, 2], keys);
    assert.deepEqual(counts, Object.fromEntries(keys.map((k) => [k, 1])));
  } finally {
    await producer.close();
    await log.admin.deleteTopics([topic]).catch(() => undefined);
    await log.close();
  }
});
