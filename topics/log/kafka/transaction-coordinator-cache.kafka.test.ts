import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kafka, logLevel } from './kafkajs.js';
import { kafkaBrokers, uniqueName, waitFor } from '../../../test/support/test-env.js';
import { producerWithCachedCoordinator } from './transaction-coordinator-cache.js';

/** Runs `count` one-record transactions and returns the FindCoordinator requests sent meanwhile. */
async function coordinatorLookups(keep: boolean, count: number): Promise<number> {
  const kafka = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const topic = uniqueName('coordinator');
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  const { producer, keepCoordinator } = producerWithCachedCoordinator(kafka, { transactionalId: uniqueName('tx'), idempotent: true, maxInFlightRequests: 1 });
  let lookups = 0;
  try {
    await producer.connect();
    await (await producer.transaction()).abort();
    if (keep) keepCoordinator();
    producer.on(producer.events.REQUEST, (event) => void (event.payload.apiName === 'GroupCoordinator' && lookups++));
    for (let i = 0; i < count; i++) {
      const tx = await producer.transaction();
      await tx.send({ topic, messages: [{ value: `v${i}` }] });
      await tx.commit();
    }
    // Each transaction wrote one record and one commit marker; the broker writes markers after
    // EndTxn answers, so the last one may land a moment later.
    await waitFor('every transaction committed', async () => Number((await admin.fetchTopicOffsets(topic))[0]!.high) === count * 2, 10_000);
  } finally {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
  return lookups;
}

test('a producer that keeps its transaction coordinator looks it up once for five transactions, and they all commit', async () => {
  assert.equal(await coordinatorLookups(true, 5), 1);
});

test('without keeping it, KafkaJS looks the transaction coordinator up before every AddPartitionsToTxn and EndTxn', async () => {
  // At least two per transaction; a CONCURRENT_TRANSACTIONS retry on a busy broker adds more.
  const lookups = await coordinatorLookups(false, 5);
  assert.ok(lookups >= 10, `${lookups} lookups`);
});
