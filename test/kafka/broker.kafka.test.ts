/**
 * Proves the test tooling: the broker given in LOGBOOK_KAFKA_BROKERS accepts a topic, a
 * 2 MB record (our message.max.bytes) and serves it back to a consumer group.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { Kafka, Partitioners, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { brokersFromEnv } from './broker.js';

test('produce -> consume round trip on a fresh topic', { timeout: 60_000 }, async () => {
  const kafka = new Kafka({ clientId: 'logbook-tooling-test', brokers: brokersFromEnv(), logLevel: logLevel.NOTHING });
  const topic = `tooling-roundtrip-${randomUUID()}`;
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const consumer = kafka.consumer({ groupId: `tooling-${randomUUID()}` });
  try {
    await admin.connect();
    assert.equal(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true }), true);

    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: 'a', value: 'first' },
        { key: 'b', value: big },
        { key: 'c', value: 'third' },
      ],
    });

    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const received: { key: string; size: number }[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            received.push({ key: message.key?.toString() ?? '', size: message.value?.length ?? 0 });
            if (received.length === 3) resolve();
          },
        })
        .catch(reject);
    });
    assert.deepEqual(received, [
      { key: 'a', size: 5 },
      { key: 'b', size: big.length },
      { key: 'c', size: 5 },
    ]);
    await admin.deleteTopics({ topics: [topic] });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
});
