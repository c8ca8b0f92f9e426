import type { Log } from '../../topics/log/log.js';
import { MAX_CHECKPOINT_AGE_MS, openShardStore, type ShardStoreSite } from './shard-store-opening.js';

/** What keeping standby stores needs from the shard manager. */
export interface StandbyStoresOptions {
  readonly log: Log;
  readonly shards: number;
  /** How often each standby store reads its changelogs' tail. */
  readonly everyMs: number;
  /** The store of `shard` on this node (directory, bindings). */
  readonly site: (shard: number) => ShardStoreSite;
  /** True while this node holds or is assigned the shard: its task owns the store then. */
  readonly held: (shard: number) => boolean;
  /** Runs work in the shard's lifecycle queue, so it never overlaps the task opening the same store. */
  readonly enqueue: (shard: number, work: () => Promise<void>) => void;
  readonly signal: AbortSignal;
  /** A refresh that failed (it is tried again next round). */
  readonly onError?: (shard: number, error: unknown) => void;
}

/**
 * Standby stores, after Kafka Streams' standby replicas: this node keeps the local store of every
 * shard it does not hold restored to near the end of its changelogs, reading the tail every few
 * seconds. When another node dies and its shards come here, the takeover reads only the last few
 * seconds of changelog instead of all of it — the difference between a takeover within the group
 * session timeout plus a second, and one that restores a whole shard first. The store is a cache
 * of the changelogs either way: a standby never writes anything to the log.
 */
export class StandbyStores {
  private readonly queued = new Set<number>();
  /** The refresh under way per shard, to stop when the shard is assigned here. */
  private readonly running = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: StandbyStoresOptions) {}

  /** Starts the rounds; the first one comes after `everyMs`, once the first assignment is in. */
  start(): void {
    const round = () => {
      if (this.options.signal.aborted) return;
      for (let shard = 0; shard < this.options.shards; shard++) this.refreshLater(shard);
      this.timer = setTimeout(round, this.options.everyMs);
      this.timer.unref();
    };
    this.timer = setTimeout(round, this.options.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** Stops the refreshes of shards just assigned here, so their takeover does not wait for them. */
  yieldTo(shards: readonly number[]): void {
    for (const shard of shards) this.running.get(shard)?.abort(new Error(`shard ${shard} was assigned to this node`));
  }

  private refreshLater(shard: number): void {
    const { options } = this;
    if (options.held(shard) || this.queued.has(shard)) return;
    this.queued.add(shard);
    options.enqueue(shard, async () => {
      try {
        // Checked again in the queue: an assignment may have come meanwhile.
        if (!options.held(shard) && !options.signal.aborted) await this.refresh(shard);
      } catch (error) {
        options.onError?.(shard, error);
      } finally {
        this.queued.delete(shard);
      }
    });
  }

  private async refresh(shard: number): Promise<void> {
    const stop = new AbortController();
    this.running.set(shard, stop);
    const store = await openShardStore(this.options.site(shard));
    try {
      // A round's refresh gives up after a round's time (a broker failing over), and at once when
      // the shard is assigned here: what it applied is checkpointed, the rest is read next time.
      const signal = AbortSignal.any([this.options.signal, stop.signal, AbortSignal.timeout(this.options.everyMs)]);
      await store.restore(this.options.log, { signal, maxCheckpointAgeMs: MAX_CHECKPOINT_AGE_MS });
    } finally {
      this.running.delete(shard);
      await store.close();
    }
  }
}
