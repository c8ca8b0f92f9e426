import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicCatalog } from '../topics/catalog.js';
import { ShardUnavailableError, type Engine } from './engine.js';
import { STANDING_GRACE_MS, withinWaitAndGrace } from './long-polls.js';

// The helper needs only the catalog, to name the shard.
const engine = { catalog: topicCatalog({ shards: 4 }) } as unknown as Engine;
const target = { namespace: 'default', workflowId: 'w-1' };

test('a long poll held past its wait and the grace by a failover ends with 503 SHARD_UNAVAILABLE naming the shard, not a hang', async () => {
  const began = Date.now();
  const never = new Promise<string>(() => undefined);
  await assert.rejects(withinWaitAndGrace(engine, target, 100, () => never), (error: unknown) => {
    assert.ok(error instanceof ShardUnavailableError);
    assert.equal(error.shard, engine.catalog.shardOf('default', 'w-1'));
    assert.match(error.message, /no answer within the request's wait of 100 ms/);
    return true;
  });
  const took = Date.now() - began;
  assert.ok(took >= 100 + STANDING_GRACE_MS - 50 && took < 100 + STANDING_GRACE_MS + 2_000, `took ${took} ms`);
});

test('a long poll that answers in time gets its answer, and its own error passes through', async () => {
  assert.equal(await withinWaitAndGrace(engine, target, 1_000, async () => 'done'), 'done');
  await assert.rejects(withinWaitAndGrace(engine, target, 1_000, async () => Promise.reject(new RangeError('bad'))), RangeError);
});
