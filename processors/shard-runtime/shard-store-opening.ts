import { join } from 'node:path';
import type { TopicCatalog } from '../../topics/catalog.js';
import type { Serde } from '../../topics/serde/index.js';
import { mutableStateSnapshotCodec } from '../../topics/serde/index.js';
import { ShardStore } from '../../state-stores/shard-store.js';
import { defaultHistoryConfig, retentionTimersOf, timersOf, type HistoryConfig } from '../history/index.js';
import { shardBindings } from './store-layout.js';

/**
 * A checkpoint older than this may precede tombstones compaction has since removed (the
 * changelogs' `delete.retention.ms`): the store is wiped and restored from the start.
 */
export const MAX_CHECKPOINT_AGE_MS = 24 * 3_600_000;

/** What opening a shard's store needs. */
export interface ShardStoreSite {
  readonly dataDirectory: string;
  readonly shard: number;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  /** The namespace registry's settings at each snapshot, or the defaults. */
  readonly history?: HistoryConfig;
  readonly clock: () => number;
}

/** Opens the local store of a shard with its changelog bindings (the owner's, or a standby's). */
export function openShardStore(site: ShardStoreSite): Promise<ShardStore> {
  return ShardStore.open({
    directory: join(site.dataDirectory, `shard-${site.shard}`),
    shard: site.shard,
    bindings: shardBindings(site.catalog, async (value, known) => {
      const state = known ?? (await site.serde.decode(mutableStateSnapshotCodec, value));
      // Read at each snapshot: the namespace registry may have changed the retention and timeouts since.
      const config = site.history ?? defaultHistoryConfig;
      return [...timersOf(state, config), ...retentionTimersOf(state, config)];
    }),
    now: site.clock,
  });
}
