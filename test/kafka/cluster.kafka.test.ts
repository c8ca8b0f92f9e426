/**
 * Proves the 3-node tooling used by failover tests: RF 3 / min ISR 2 keeps acks=all
 * writes going with one node down, and stopping the cluster leaves no JVM behind.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { Kafka, Partitioners, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { startKafka, type RunningKafka } from './broker.js';
import { isAlive } from './processes.js';

/** Retries `fn` until it returns a truthy value: metadata reaches each node at its own pace. */
async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch((e: unknown) => (Date.now() > deadline ? Promise.reject(e) : undefined));
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('3-node cluster survives one node down and stops cleanly', { timeout: 120_000 }, async () => {
  let cluster: RunningKafka | undefined = await startKafka({ nodes: 3 });
  const pids = cluster.pids;
  assert.equal(pids.length, 3);
  const kafka = new Kafka({ clientId: 'logbook-cluster-test', brokers: cluster.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  try {
    const topic = `tooling-failover-${randomUUID()}`;
    await admin.connect();
    // Not waitForLeaders: kafkajs then asks any node for metadata and gives up with
    // UNKNOWN_TOPIC_OR_PARTITION when that node has not yet seen the new topic.
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 3 }], waitForLeaders: false });
    // All three replicas in sync first, so losing one leaves the ISR at min.insync.replicas.
    const partition = await eventually(async () => {
      const p = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions[0];
      return p && p.leader > 0 && p.isr.length === 3 ? p : undefined;
    });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: 'before' }] });

    // Take down the partition leader, the node whose loss actually forces a failover.
    const leaderIndex = partition.leader - 1;
    const leaderPid = cluster.pids[leaderIndex]!;
    await cluster.stopNode(leaderIndex);
    assert.equal(isAlive(leaderPid), false, 'stopped node is gone');
    assert.equal(cluster.pids.length, 2);

    // acks=all with min.insync.replicas=2 still succeeds with 2 of 3 replicas.
    const [result] = await producer.send({ topic, acks: -1, messages: [{ value: 'after' }] });
    assert.equal(result?.errorCode, 0);
    const offsets = await admin.fetchTopicOffsets(topic);
    assert.equal(offsets[0]?.high, '2');
  } finally {
    await producer.disconnect();
    await admin.disconnect();
    const dataDir = cluster.dataDir;
    await cluster.stop();
    cluster = undefined;
    assert.deepEqual(pids.filter(isAlive), [], 'no broker JVM left');
    assert.equal(existsSync(dataDir), false, 'temp data dir removed');
  }
});
