import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ConfigResourceTypes, Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { topicCatalog, workflowKey } from '../../topics/catalog.js';
import { TopicMismatchError } from '../../topics/errors.js';
import type { Log } from '../../topics/log/log.js';
import { openLog } from '../../topics/log/open-log.js';
import { ensureTopics } from '../../topics/topic-setup.js';
import { kafkaBrokers, uniqueName } from '../support/test-env.js';

// This file plays an external, plain Kafka client (a producer another team would run), so it
// uses kafkajs directly instead of the engine's log interface.
let kafka: InstanceType<typeof Kafka>;
let log: Log;
before(async () => {
  kafka = new Kafka({ clientId: 'external-producer', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
  log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
});
after(async () => log.close());

test('a plain Kafka producer keying records ns/workflowId reaches the shard the engine computes, for 1,000 random ids', async () => {
  const catalog = topicCatalog({ prefix: uniqueName('lb').replaceAll('-', '_'), shards: 16 });
  await ensureTopics(log.admin, catalog);
  // Idempotent so that KafkaJS's retry of a partly failed send (leaders of a new topic are still
  // settling) cannot duplicate records.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const ids = Array.from({ length: 1_000 }, () => `order-${randomUUID()}`);
  await producer.send({ topic: catalog.commands, messages: ids.map((id) => ({ key: workflowKey('default', id), value: 'x' })) });
  await producer.disconnect();
  const seen = new Set<string>();
  for (let p = 0; p < catalog.shards; p++) {
    await log.readPartition(catalog.commands, p, 0, (records) => {
      for (const r of records) {
        const id = r.key!.toString().slice('default/'.length);
        assert.equal(catalog.shardOf('default', id), p, `${id} landed on partition ${p}`);
        seen.add(id);
      }
    });
  }
  assert.deepEqual([...seen].sort(), [...ids].sort());
});

test('the catalog is created with compacted changelogs and the record size limits, and a different shard count is refused', async () => {
  const prefix = uniqueName('lb').replaceAll('-', '_');
  const catalog = topicCatalog({ prefix, shards: 4 });
  await ensureTopics(log.admin, catalog);
  await ensureTopics(log.admin, catalog);
  const admin = kafka.admin();
  await admin.connect();
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [catalog.state, catalog.history, catalog.commands].map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
  });
  await admin.disconnect();
  const config = (topic: string, name: string) =>
    resources.find((r) => r.resourceName === topic)?.configEntries.find((e) => e.configName === name)?.configValue;
  assert.equal(config(catalog.state, 'cleanup.policy'), 'compact');
  assert.equal(config(catalog.history, 'cleanup.policy'), 'compact');
  assert.ok(Number(config(catalog.state, 'max.compaction.lag.ms')) > 0);
  assert.ok(Number(config(catalog.state, 'segment.ms')) > 0);
  assert.equal(config(catalog.commands, 'cleanup.policy'), 'delete');
  assert.equal(config(catalog.commands, 'max.message.bytes'), String(4 * 1024 * 1024));
  await assert.rejects(ensureTopics(log.admin, topicCatalog({ prefix, shards: 8 })), (error: unknown) => {
    assert.ok(error instanceof TopicMismatchError);
    assert.match(error.message, /has 4 partitions but the engine is configured with 8 shards/);
    return true;
  });
});
