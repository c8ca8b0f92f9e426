import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyKey, topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { ensureTopics } from '../../topics/topic-setup.js';
import { SingleObjectSerde } from '../../topics/serde/index.js';
import { openShardStore } from './shard-store-opening.js';
import { Keyspace, historyStoreKey } from './store-layout.js';
import { StandbyStores } from './standby-stores.js';

/** The embedded log with a shard's history changelog holding `events` records, and what a standby needs. */
async function withChangelog(events: number, run: (ctx: Awaited<ReturnType<typeof setUp>>) => Promise<void>): Promise<void> {
  const ctx = await setUp(events);
  try {
    await run(ctx);
  } finally {
    ctx.abort.abort();
    await ctx.log.close();
    await rm(ctx.directory, { recursive: true, force: true });
  }
}

async function setUp(events: number) {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-standby-'));
  const log = await openLog({ kind: 'embedded', directory: join(directory, 'log') });
  const catalog = topicCatalog({ shards: 2 });
  await ensureTopics(log.admin, catalog);
  const producer = await log.producer();
  await producer.send(Array.from({ length: events }, (_, i) => ({ topic: catalog.history, partition: 1, key: historyKey('default', 'w', 'r', i + 1), value: Buffer.from(`event ${i + 1}`) })));
  const site = (shard: number) => ({ dataDirectory: join(directory, 'data'), shard, catalog, serde: new SingleObjectSerde(), clock: Date.now });
  return { directory, log, catalog, site, abort: new AbortController() };
}

/** Runs work one at a time per shard, as the shard manager's lifecycle queue does; resolves once all queued work is done. */
function lifecycleQueue() {
  const chains = new Map<number, Promise<void>>();
  return {
    enqueue: (shard: number, work: () => Promise<void>) => void chains.set(shard, (chains.get(shard) ?? Promise.resolve()).then(work)),
    idle: async () => void (await Promise.all(chains.values())),
  };
}

test('a standby store of a shard this node does not hold follows its changelog to the end, so a takeover reads only what came after', async () => {
  await withChangelog(300, async ({ log, catalog, site, abort }) => {
    const queue = lifecycleQueue();
    const standbys = new StandbyStores({ log, shards: 2, everyMs: 50, site, held: (shard) => shard === 0, enqueue: queue.enqueue, signal: abort.signal });
    standbys.start();
    await new Promise((r) => setTimeout(r, 200));
    standbys.stop();
    await queue.idle();

    const store = await openShardStore(site(1));
    try {
      assert.equal((await store.checkpoint(catalog.history)).nextOffset, 300);
      assert.ok(await store.get(Keyspace.history, historyStoreKey(historyKey('default', 'w', 'r', 300))), 'the last event is in the standby store');
      const takeover = await store.restore(log);
      assert.equal(takeover.recordsApplied, 0, 'the takeover had nothing left to read');
    } finally {
      await store.close();
    }
    await assert.rejects(stat(join(site(0).dataDirectory, 'shard-0')), { code: 'ENOENT' }, 'the store of a held shard is left to its task');
  });
});
