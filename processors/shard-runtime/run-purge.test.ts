import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { topicCatalog } from '../../topics/catalog.js';
import { purgeRecords } from './run-purge.js';
import { eventStoreKey, Keyspace } from './store-layout.js';

const catalog = topicCatalog({ shards: 4, prefix: 'lb' });

/** A store holding the given keys per keyspace (values do not matter to a purge). */
function storeWith(keys: Record<string, string[]>) {
  return {
    async *entries(keyspace: string, bounds: { gte?: string; lt?: string } = {}): AsyncIterable<[string, Buffer]> {
      for (const key of [...(keys[keyspace] ?? [])].sort()) {
        if ((bounds.gte === undefined || key >= bounds.gte) && (bounds.lt === undefined || key < bounds.lt)) yield [key, Buffer.alloc(0)];
      }
    },
  };
}

describe('purge records of a workflow whose retention ended', () => {
  it('tombstone its state, the visibility row and every event of every run, with the log keys', async () => {
    const store = storeWith({
      [Keyspace.visibility]: ['ns/a/run-1', 'ns/a/run-2', 'ns/a/b/run-9', 'ns/ab/run-3'],
      [Keyspace.history]: [eventStoreKey('ns/a', 'run-1', 1), eventStoreKey('ns/a', 'run-1', 12), eventStoreKey('ns/a', 'run-2', 1), eventStoreKey('ns/a/b', 'run-9', 1), eventStoreKey('ns/ab', 'run-3', 1)],
    });
    const records = await purgeRecords(store, catalog, 2, 'ns/a');
    assert.ok(records.every((r) => r.value === null && r.partition === 2), 'only tombstones, on the shard');
    assert.deepEqual(records.map((r) => [r.topic, r.key]), [
      ['lb.state', 'ns/a'],
      ['lb.visibility', 'ns/a/run-1'],
      ['lb.visibility', 'ns/a/run-2'],
      ['lb.history', 'ns/a/run-1/1'],
      ['lb.history', 'ns/a/run-1/12'],
      ['lb.history', 'ns/a/run-2/1'],
    ]);
  });
});
