import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RECORD_BYTES } from '../../catalog.js';
import { kafkaBrokers, uniqueName } from '../../../test/support/test-env.js';
import type { LogRecord, OutgoingRecord } from '../log.js';
import { KafkaLog } from './kafka-log.js';

/**
 * Two shard producers whose transactions are both aborted, their records interleaved on one
 * partition (as a broker failure leaves them), then a committed record: a read_committed reader
 * that starts between them — a restore from a checkpoint, a worker resuming after a rebalance —
 * must see only the committed one. KafkaJS's own filter hands over the second producer's first
 * record (see aborted-transactions.ts).
 */
test('a read_committed read that starts inside two overlapping aborted transactions sees only committed records, on the real broker', { timeout: 90_000 }, async () => {
  const log = new KafkaLog({ brokers: kafkaBrokers(), clientId: uniqueName('aborted-reader'), maxRecordBytes: MAX_RECORD_BYTES });
  const topic = uniqueName('aborted-overlap');
  const at = (key: string): OutgoingRecord => ({ topic, partition: 0, key, value: Buffer.from(key) });
  let consumer: ReturnType<KafkaLog['groupConsumer']> | undefined;
  try {
    await log.admin.createTopics([{ name: topic, partitions: 1, replicationFactor: 1, config: {} }]);
    const [one, two, three] = await Promise.all(['a', 'b', 'c'].map((n) => log.transactionalProducer(uniqueName(`aborted-${n}`))));
    const first = await one!.begin();
    await first.send([at('aborted-1a')]);
    const second = await two!.begin();
    await second.send([at('aborted-2a')]);
    await first.send([at('aborted-1b')]);
    await second.send([at('aborted-2b')]);
    await first.abort();
    await second.abort();
    const third = await three!.begin();
    await third.send([at('committed')]);
    await third.commit();
    await Promise.all([one!.close(), two!.close(), three!.close()]);

    // Offset 1 is producer two's first record: inside both aborted transactions.
    assert.deepEqual(await readFrom(log, topic, 1), ['committed'], 'the partition reader (restores, audits)');

    const group = consumerOf(log, topic);
    consumer = group.consumer;
    assert.deepEqual(await group.keysFrom(1), ['committed'], 'the group consumer (shards, workers)');
  } finally {
    await consumer?.stop();
    await log.admin.deleteTopics([topic]).catch(() => undefined);
    await log.close();
  }
});

/** The keys read from `offset` once the committed record is readable (its marker may lag the commit a little). */
async function readFrom(log: KafkaLog, topic: string, offset: number): Promise<string[]> {
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const read: string[] = [];
    await log.readPartition(topic, 0, offset, (records) => void read.push(...records.map((r) => r.key!.toString())));
    if (read.includes('committed') || Date.now() > deadline) return read;
  }
}

function consumerOf(log: KafkaLog, topic: string) {
  const consumer = log.groupConsumer({ groupId: uniqueName('aborted-group'), topics: [topic], endpoint: 'http://test' });
  return {
    consumer,
    /** Starts the consumer, sets partition 0 at `offset` and takes records until the committed one arrives. */
    async keysFrom(offset: number): Promise<string[]> {
      const assigned = new Promise<void>((resolve) => {
        void consumer.start({
          onAssigned: (partitions) => {
            if (partitions.includes(0)) {
              consumer.seek(0, { [topic]: offset });
              resolve();
            }
          },
          onRevoked: () => undefined,
        });
      });
      await assigned;
      const keys: string[] = [];
      const deadline = Date.now() + 30_000;
      while (!keys.includes('committed') && Date.now() < deadline) {
        const records: LogRecord[] = await consumer.take(0, { maxRecords: 100, maxBytes: 1 << 20, waitMs: 1_000 });
        keys.push(...records.map((r) => r.key!.toString()));
      }
      return keys;
    },
  };
}
