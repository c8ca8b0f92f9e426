import type { ShardTransition } from '../processors/shard-runtime/shard-lifecycle.js';
import { isFailure, ShardState, transitionLine } from '../processors/shard-runtime/shard-lifecycle.js';
import type { RestoreProgress } from '../state-stores/shard-store.js';
import type { EngineMetrics } from './metrics.js';

/** A restore reports its progress at most this often per shard. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * What a node prints about its shards: every failure (CORRUPTED, MIGRATED) with its cause, the
 * moment a shard that failed is running again, and the progress of a long restore — and the
 * lifecycle counters of the metrics. One line per event, never a line per retry of the same input.
 */
export function shardLogLines(print: (line: string, shard: number, level: 'info' | 'warn') => void, metrics?: EngineMetrics) {
  const failed = new Set<number>();
  const lastProgress = new Map<number, number>();
  return {
    onTransition(t: ShardTransition): void {
      metrics?.recordShardTransition(t);
      if (isFailure(t)) {
        failed.add(t.shard);
        print(transitionLine(t), t.shard, 'warn');
      } else if (t.to === ShardState.Running && failed.delete(t.shard)) {
        print(`shard ${t.shard}: running again (generation ${t.generation})`, t.shard, 'info');
      }
    },
    onRestoreProgress(shard: number, p: RestoreProgress): void {
      const now = Date.now();
      const started = lastProgress.get(shard);
      if (started === undefined) lastProgress.set(shard, now);
      else if (now - started >= PROGRESS_EVERY_MS) {
        lastProgress.set(shard, now);
        print(`shard ${shard}: restoring ${p.topic}, offset ${p.position} of ${p.endOffset} (${p.recordsApplied} records applied)`, shard, 'info');
      }
      if (p.position >= p.endOffset) lastProgress.delete(shard);
    },
  };
}
