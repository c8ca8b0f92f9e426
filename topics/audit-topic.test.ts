import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topicCatalog } from './catalog.js';

test('the audit topic is a fixed topic under the deployment prefix, deleted by age only and kept forever by default', () => {
  const catalog = topicCatalog({ shards: 4, prefix: 'acme' });
  assert.equal(catalog.audit, 'acme.audit');
  const spec = catalog.fixedTopics.find((t) => t.name === catalog.audit);
  assert.ok(spec, 'created with the other fixed topics');
  assert.equal(spec.partitions, 4);
  assert.equal(spec.config['cleanup.policy'], 'delete', 'compaction would keep one call per namespace');
  assert.equal(spec.config['retention.ms'], '-1');
});

test('the audit retention and partition count are the deployment’s choice, and a retention that cannot work is refused', () => {
  const yearMs = 365 * 24 * 3_600_000;
  const spec = topicCatalog({ shards: 4, auditRetentionMs: yearMs, auditPartitions: 2 }).fixedTopics.find((t) => t.name === 'logbook.audit');
  assert.equal(spec?.config['retention.ms'], String(yearMs));
  assert.equal(spec?.partitions, 2);
  for (const bad of [0, -2, 1.5]) assert.throws(() => topicCatalog({ shards: 4, auditRetentionMs: bad }), /audit retention/);
});
