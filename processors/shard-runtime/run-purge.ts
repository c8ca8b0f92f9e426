import type { TopicCatalog } from '../../topics/catalog.js';
import type { OutgoingRecord } from '../../topics/log/log.js';
import type { ShardStore } from '../../state-stores/shard-store.js';
import { Keyspace } from './store-layout.js';

/**
 * The tombstones that delete a workflow whose retention ended: its state snapshot, the
 * visibility row of every run and every history event of every run, found in the shard store.
 *
 * Every changelog is compacted, so a tombstone makes the cleaner drop the key's earlier values
 * (within `max.compaction.lag.ms`), then the tombstone itself after `delete.retention.ms`; the
 * local store deletes the keys when it applies them, and a restore elsewhere does the same.
 *
 * Keys are matched with the workflow key followed by `/`, then exactly one more segment for a
 * visibility row (`runId`) and two for an event (`runId/eventId`), so the workflow `a` never takes
 * the records of a workflow `a/b` with it.
 */
export async function purgeRecords(store: Pick<ShardStore, 'entries'>, catalog: TopicCatalog, shard: number, workflowKey: string): Promise<OutgoingRecord[]> {
  const prefix = `${workflowKey}/`;
  const bounds = { gte: prefix, lt: `${workflowKey}0` };
  const tombstone = (topic: string, key: string): OutgoingRecord => ({ topic, partition: shard, key, value: null });
  const records: OutgoingRecord[] = [tombstone(catalog.state, workflowKey)];
  for await (const [key] of store.entries(Keyspace.visibility, bounds)) {
    if (!key.slice(prefix.length).includes('/')) records.push(tombstone(catalog.visibility, key));
  }
  for await (const [storeKey] of store.entries(Keyspace.history, bounds)) {
    const rest = storeKey.slice(prefix.length).split('/');
    if (rest.length !== 2) continue;
    // The store pads event ids so a run's events sort; the log key has the plain number.
    records.push(tombstone(catalog.history, `${prefix}${rest[0]}/${Number(rest[1])}`));
  }
  return records;
}
