import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicCatalog } from './catalog.js';
import { replicationFor } from './replication.js';

test('by default three brokers or more get replication factor 3 with min.insync.replicas 2, and smaller clusters one copy per broker', () => {
  assert.deepEqual(replicationFor(1), { replicationFactor: 1, minInsyncReplicas: 1 });
  assert.deepEqual(replicationFor(2), { replicationFactor: 2, minInsyncReplicas: 1 });
  assert.deepEqual(replicationFor(3), { replicationFactor: 3, minInsyncReplicas: 2 });
  assert.deepEqual(replicationFor(9), { replicationFactor: 3, minInsyncReplicas: 2 });
});

test('a chosen replication factor brings its own min.insync.replicas default, and a chosen min.insync.replicas is kept', () => {
  assert.deepEqual(replicationFor(5, { replicationFactor: 5 }), { replicationFactor: 5, minInsyncReplicas: 2 });
  assert.deepEqual(replicationFor(5, { replicationFactor: 2 }), { replicationFactor: 2, minInsyncReplicas: 1 });
  assert.deepEqual(replicationFor(3, { minInsyncReplicas: 3 }), { replicationFactor: 3, minInsyncReplicas: 3 });
  assert.deepEqual(replicationFor(3, { replicationFactor: 1 }), { replicationFactor: 1, minInsyncReplicas: 1 });
});

test('settings that cannot work are refused with the rule they break', () => {
  assert.throws(() => replicationFor(1, { replicationFactor: 3 }), /replication factor 3 needs at least 3 brokers, and the cluster has 1/);
  assert.throws(() => replicationFor(3, { minInsyncReplicas: 4 }), /min.insync.replicas 4 exceeds the replication factor 3/);
  assert.throws(() => replicationFor(3, { replicationFactor: 0 }), /the replication factor must be a positive integer, got 0/);
  assert.throws(() => replicationFor(3, { minInsyncReplicas: 1.5 }), /min.insync.replicas must be a positive integer, got 1.5/);
});

test('every topic of the catalog, fixed and task topics alike, carries the replication factor and min.insync.replicas', () => {
  const catalog = topicCatalog({ shards: 4, replicationFactor: 3, minInsyncReplicas: 2 });
  const specs = [...catalog.fixedTopics, ...catalog.taskTopicSpecs('default', 'orders')];
  assert.equal(specs.length, catalog.fixedTopics.length + 4);
  for (const spec of specs) {
    assert.equal(spec.replicationFactor, 3, spec.name);
    assert.equal(spec.config['min.insync.replicas'], '2', spec.name);
  }
  assert.deepEqual(topicCatalog({ shards: 4 }).replication, { replicationFactor: 1, minInsyncReplicas: 1 });
});
