import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaBrokers, uniqueName } from '../test/support/test-env.js';
import { topicCatalog } from './catalog.js';
import { openLog } from './log/open-log.js';
import { ensureTopics } from './topic-setup.js';

test('on the real broker, every fixed topic of a fresh prefix is readable and writable on every partition the moment ensureTopics returns, five times over', { timeout: 120_000 }, async () => {
  for (let round = 0; round < 5; round++) {
    const catalog = topicCatalog({ prefix: uniqueName('fresh').replaceAll('-', '_'), shards: 4 });
    const setup = await openLog({ kind: 'kafka', brokers: kafkaBrokers(), clientId: uniqueName('setup') });
    // A client that has seen none of it, as the engine's producers and readers are.
    const user = await openLog({ kind: 'kafka', brokers: kafkaBrokers(), clientId: uniqueName('user') });
    try {
      await ensureTopics(setup.admin, catalog, { timeoutMs: 30_000 });
      const producer = await user.producer();
      for (const spec of catalog.fixedTopics) {
        for (let partition = 0; partition < spec.partitions; partition++) {
          assert.equal(await user.endOffset(spec.name, partition), 0, `${spec.name}[${partition}] is readable`);
        }
        await producer.send([{ topic: spec.name, partition: spec.partitions - 1, key: 'k', value: Buffer.from('v') }]);
        assert.equal(await user.endOffset(spec.name, spec.partitions - 1), 1, `${spec.name} is writable`);
      }
    } finally {
      await setup.admin.deleteTopics(catalog.fixedTopics.map((t) => t.name)).catch(() => undefined);
      await user.close();
      await setup.close();
    }
  }
});
