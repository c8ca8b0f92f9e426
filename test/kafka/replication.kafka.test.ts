import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../gateway/engine.js';
import { topicReplication } from '../support/topic-replication.js';
import { kafkaBrokers, uniqueName } from '../support/test-env.js';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { resolveReplication } from '../../topics/replication.js';
import { ensureTaskTopics, ensureTopics } from '../../topics/topic-setup.js';

test('on the single test broker the topics default to replication factor 1 and min.insync.replicas 1, task topics too', async () => {
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers(), clientId: uniqueName('replication') });
  const replication = await resolveReplication(log.admin);
  const catalog = topicCatalog({ prefix: uniqueName('rf').replaceAll('-', '_'), shards: 2, ...replication });
  const names = [...catalog.fixedTopics, ...catalog.taskTopicSpecs('default', 'orders')].map((t) => t.name);
  try {
    assert.deepEqual(replication, { replicationFactor: 1, minInsyncReplicas: 1, brokers: 1 });
    await ensureTopics(log.admin, catalog);
    await ensureTaskTopics(log.admin, catalog, 'default', 'orders');
    const found = await topicReplication(kafkaBrokers(), names);
    assert.equal(found.size, names.length);
    for (const [name, topic] of found) assert.deepEqual(topic, { replicas: 1, minInsyncReplicas: '1' }, name);
  } finally {
    await log.admin.deleteTopics(names).catch(() => undefined);
    await log.close();
  }
});

test('an engine asked for replication factor 3 on a single broker refuses to start, naming the rule, before it creates a topic', async () => {
  const prefix = uniqueName('rf3').replaceAll('-', '_');
  const directory = await mkdtemp(join(tmpdir(), 'logbook-rf3-'));
  try {
    await assert.rejects(
      Engine.start({ log: { kind: 'kafka', brokers: kafkaBrokers() }, prefix, shards: 2, dataDirectory: directory, endpoint: 'http://127.0.0.1:1', replicationFactor: 3 }),
      /replication factor 3 needs at least 3 brokers, and the cluster has 1/,
    );
    const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
    assert.equal((await log.admin.describeTopics([`${prefix}.commands`])).size, 0, 'no topic was created');
    await log.close();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
