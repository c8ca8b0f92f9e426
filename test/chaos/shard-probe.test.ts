import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicCatalog } from '../../topics/catalog.js';
import { probeIds } from './shard-probe.js';

test('the probe ids name one never-started workflow on each shard, in shard order', () => {
  const catalog = topicCatalog({ shards: 8 });
  const ids = probeIds('default', 8);
  assert.equal(ids.length, 8);
  ids.forEach((id, shard) => assert.equal(catalog.shardOf('default', id), shard, id));
  assert.ok(ids.every((id) => id.startsWith('chaos-probe-')));
});
