/**
 * What needs more than one broker, on one three-node cluster started for this file: exactly-once
 * when a transactional send is split into one Produce request per partition leader (a failure of
 * one of them used to make KafkaJS send the others again with fresh sequence numbers), and the
 * replication defaults of a production-sized cluster.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { MAX_RECORD_BYTES } from '../../topics/catalog.js';
import { topicCatalog } from '../../topics/catalog.js';
import { KafkaLog } from '../../topics/log/kafka/kafka-log.js';
import { resolveReplication } from '../../topics/replication.js';
import { ensureTaskTopics, ensureTopics } from '../../topics/topic-setup.js';
import { commitLikeAShard, committedKeyCounts } from '../support/exactly-once.js';
import { produceFaults } from '../support/produce-faults.js';
import { topicReplication } from '../support/topic-replication.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { startKafka, type RunningKafka } from './broker.js';

let cluster: RunningKafka;

before(async () => {
  cluster = await startKafka({ nodes: 3 });
});

after(async () => {
  await cluster?.stop();
});

/** Creates a topic whose partition i is led by node i+1, every partition on all three nodes and in sync. */
async function topicLedByEachNode(topic: string): Promise<void> {
  const kafka = new Kafka({ clientId: uniqueName('setup'), brokers: cluster.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const replicaAssignment = [0, 1, 2].map((p) => ({ partition: p, replicas: [1, 2, 3].map((_, r) => ((p + r) % 3) + 1) }));
    await admin.createTopics({ topics: [{ topic, replicaAssignment }], waitForLeaders: false });
    await waitFor('every partition led by its preferred node with all replicas in sync', async () => {
      const metadata = await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined);
      const partitions = metadata?.topics[0]?.partitions ?? [];
      return partitions.length === 3 && partitions.every((p) => p.leader === p.partitionId + 1 && p.isr.length === 3);
    });
  } finally {
    await admin.disconnect();
  }
}

/** Rounds of the scenario: KafkaJS picks the broker of its metadata refresh at random, and only a refresh from one of the fast brokers lets its retry overtake the slow answer. */
const ROUNDS = 4;
/** NOT_ENOUGH_REPLICAS_AFTER_APPEND: retriable, and the records were written. */
const WRITTEN_BUT_FAILED = 20;

test('a transaction never holds a record twice when one broker reports a written produce as failed while another broker is slow to answer', { timeout: 120_000 }, async (t) => {
  const topic = uniqueName('eos-cluster');
  await topicLedByEachNode(topic);
  const port = (node: number) => Number(cluster.brokers[node - 1]!.split(':')[1]);
  const ids = Array.from({ length: ROUNDS }, (_, round) => uniqueName(`eos-cluster-tx${round}`));
  const faults = produceFaults(
    ids.flatMap((transactionalId) => [
      // Node 2 appends but answers with a retriable error: KafkaJS retries the send at once, while...
      { transactionalId, port: port(2), times: 1, action: { kind: 'error', code: WRITTEN_BUT_FAILED } },
      // ...node 3 has appended too, and its answer is still on the way.
      { transactionalId, port: port(3), times: 1, action: { kind: 'delay', delayMs: 1_500 } },
    ]),
  );
  const faulty = new KafkaLog({ brokers: cluster.brokers, clientId: uniqueName('faulty'), maxRecordBytes: MAX_RECORD_BYTES, faults: { socketFactory: faults.socketFactory } });
  const reader = new KafkaLog({ brokers: cluster.brokers, clientId: uniqueName('reader'), maxRecordBytes: MAX_RECORD_BYTES });
  try {
    const keys: string[] = [];
    for (const [round, transactionalId] of ids.entries()) {
      const records = [0, 1, 2].map((p) => ({ topic, partition: p, key: `wf-${p}/run-${round}/21`, value: Buffer.from(`round ${round}, partition ${p}`) }));
      keys.push(...records.map((r) => r.key));
      const began = Date.now();
      const { attempts } = await commitLikeAShard(faulty, transactionalId, records);
      const sent = faults.requests.filter((r) => r.transactionalId === transactionalId);
      t.diagnostic(`round ${round} (${Date.now() - began} ms): ${attempts.map((a) => (a === 'committed' ? a : a.code)).join(', ')}; produce requests: ${sent.map((r) => `node ${cluster.brokers.findIndex((b) => b.endsWith(`:${r.port}`)) + 1} ${r.batches.map((b) => `p${b.partition} seq ${b.baseSequence}`).join('+')}`).join(', ')}`);
    }

    assert.equal(faults.injected.length, 2 * ROUNDS, 'every fault happened');
    const counts = await committedKeyCounts(reader, topic, [0, 1, 2], keys);
    assert.deepEqual(counts, Object.fromEntries(keys.map((k) => [k, 1])));
  } finally {
    await faulty.close();
    await reader.close();
  }
});

test('a transaction whose partitions have three leaders sends the first partition alone, then the other two together: only a one-leader send may be retried', { timeout: 60_000 }, async (t) => {
  const topic = uniqueName('split-send');
  await topicLedByEachNode(topic);
  const transactionalId = uniqueName('split-send-tx');
  const watch = produceFaults([{ transactionalId, times: 0, action: { kind: 'drop' } }]);
  const log = new KafkaLog({ brokers: cluster.brokers, clientId: uniqueName('split'), maxRecordBytes: MAX_RECORD_BYTES, faults: { socketFactory: watch.socketFactory } });
  try {
    const records = [0, 1, 2].map((p) => ({ topic, partition: p, key: `k${p}`, value: Buffer.from(`partition ${p}`) }));
    // Every broker learns of a new topic's leaders a moment after the controller: a first
    // transaction (not watched) may fail on a broker that has not, and is written again.
    const warmUpId = uniqueName('split-send-warm-up');
    await waitFor('a first transaction on the new topic', () =>
      commitLikeAShard(log, warmUpId, records.map((r) => ({ ...r, key: `warm-up-${r.key}` }))).then(() => true, () => undefined),
    );
    const { attempts } = await commitLikeAShard(log, transactionalId, records);
    t.diagnostic(`attempts: ${attempts.map((a) => (a === 'committed' ? a : a.message)).join(' | ')}`);
    assert.deepEqual(attempts, ['committed']);
    const partitionsPerRequest = watch.requests.map((r) => r.batches.map((b) => b.partition).sort());
    assert.deepEqual(partitionsPerRequest[0], [0]);
    assert.deepEqual(partitionsPerRequest.slice(1).flat().sort(), [1, 2]);
    const keys = ['k0', 'k1', 'k2', 'warm-up-k0', 'warm-up-k1', 'warm-up-k2'];
    assert.deepEqual(await committedKeyCounts(log, topic, [0, 1, 2], keys), Object.fromEntries(keys.map((k) => [k, 1])));
  } finally {
    await log.close();
  }
});

test('on three brokers the engine\'s topics default to replication factor 3 and min.insync.replicas 2, task topics too', { timeout: 60_000 }, async () => {
  const log = new KafkaLog({ brokers: cluster.brokers, clientId: uniqueName('replication'), maxRecordBytes: MAX_RECORD_BYTES });
  try {
    const replication = await resolveReplication(log.admin);
    assert.deepEqual(replication, { replicationFactor: 3, minInsyncReplicas: 2, brokers: 3 });
    const catalog = topicCatalog({ prefix: uniqueName('rf').replaceAll('-', '_'), shards: 3, ...replication });
    await ensureTopics(log.admin, catalog);
    await ensureTaskTopics(log.admin, catalog, 'default', 'orders');
    const names = [...catalog.fixedTopics, ...catalog.taskTopicSpecs('default', 'orders')].map((t) => t.name);
    const found = await topicReplication(cluster.brokers, names);
    assert.equal(found.size, names.length);
    for (const [name, topic] of found) assert.deepEqual(topic, { replicas: 3, minInsyncReplicas: '2' }, name);
  } finally {
    await log.close();
  }
});
