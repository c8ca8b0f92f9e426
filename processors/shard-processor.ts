import { join } from 'node:path';
import { FencedError } from '../topics/errors.js';
import type { GroupConsumer, Log, LogRecord, TransactionalProducer } from '../topics/log/log.js';
import type { Serde } from '../topics/serde/index.js';
import { mutableStateSnapshotCodec, shardPositionsCodec } from '../topics/serde/index.js';
import type { MutableStateSnapshot } from '../topics/schemas/mutable-state-snapshot/index.js';
import { ShardStore } from '../state-stores/shard-store.js';
import type { TopicCatalog } from '../topics/catalog.js';
import { defaultHistoryConfig, retentionTimersOf, timersOf, type HistoryConfig } from './history/index.js';
import { runBatch, type BatchResult } from './shard-batch.js';
import { StateCache } from './state-cache.js';
import { Keyspace, POSITIONS_KEY, shardBindings, timerStoreKey, timersDueBefore, type TimerEntry } from './store-layout.js';
import type { TaskTopics } from './task-topics.js';

/** How often a shard commits its group positions for lag monitoring. */
const LAG_COMMIT_INTERVAL_MS = 500;

/** Limits of one batch (one transaction). */
export interface BatchLimits {
  readonly maxRecords: number;
  readonly maxBytes: number;
  /** Longest wait for input when no timer is due sooner. */
  readonly idleWaitMs: number;
  /** Due timers fired per batch. */
  readonly maxTimers: number;
}

/** What a shard processor needs; passed in so it is testable and backend-agnostic. */
export interface ShardProcessorDeps {
  readonly shard: number;
  readonly log: Log;
  readonly consumer: GroupConsumer;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly clock: () => number;
  readonly dataDirectory: string;
  readonly limits: BatchLimits;
  readonly taskTopics: TaskTopics;
  /** Read at every batch and snapshot (may be a getter over the namespace registry). */
  readonly history?: HistoryConfig;
  readonly transactionTimeoutMs: number;
  /** Called once when the processor stops because of a failure, with the remedy it needs. */
  readonly onFailure: (shard: number, remedy: 'lost' | 'corrupted', error: unknown) => void;
  readonly onBatch?: (shard: number, result: BatchResult) => void;
}

/**
 * The exactly-once loop of one shard (DESIGN.md §3): fence, restore, seek, then bounded batches of
 * commands and due timers, one transaction each, the local store written only after the commit.
 * Any failure stops the loop at once and is reported with its remedy; the owning node decides
 * whether to re-acquire the shard.
 */
export class ShardProcessor {
  private producer: TransactionalProducer | undefined;
  private store: ShardStore | undefined;
  private readonly cache = new StateCache(10_000);
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  /** The batch being committed and applied, if any (reads wait for it). */
  private batchInFlight: Promise<void> = Promise.resolve();
  private suspended = false;
  /** Restored and processing: only then does the shard serve reads. */
  private ready = false;
  /** The next offsets of the inputs, as committed in the state changelog. */
  private positions: Record<string, number> = {};
  private lagCommitTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ShardProcessorDeps) {}

  get shard(): number {
    return this.deps.shard;
  }

  /** Fences, restores and seeks; then runs the loop in the background. */
  async start(): Promise<void> {
    const { deps } = this;
    deps.consumer.pause(deps.shard);
    // Fencing first: InitProducerId waits for the previous owner's open transaction to end, so the
    // restore below sees its outcome, and bumps the epoch so a zombie's next commit fails.
    this.producer = await deps.log.transactionalProducer(`${deps.catalog.prefix}-history-${deps.shard}`, {
      transactionTimeoutMs: deps.transactionTimeoutMs,
    });
    this.store = await ShardStore.open({
      directory: join(deps.dataDirectory, `shard-${deps.shard}`),
      shard: deps.shard,
      bindings: shardBindings(deps.catalog, async (value) => {
        const state = await deps.serde.decode(mutableStateSnapshotCodec, value);
        // Read at each snapshot: the namespace registry may have changed the retention since.
        const config = deps.history ?? defaultHistoryConfig;
        return [...timersOf(state, config), ...retentionTimersOf(state, config)];
      }),
    });
    await this.store.restore(deps.log, { signal: this.abort.signal, maxCheckpointAgeMs: 24 * 3_600_000 });
    this.positions = await this.restoredPositions();
    if (this.abort.signal.aborted) return;
    deps.consumer.seek(deps.shard, this.positions);
    this.ready = true;
    this.loop = this.run();
  }

  /** Stops the loop and releases the producer and store; never re-initialises anything. */
  async stop(): Promise<void> {
    this.ready = false;
    this.abort.abort(new Error(`shard ${this.deps.shard} stopped`));
    clearTimeout(this.lagCommitTimer);
    await this.loop?.catch(() => undefined);
    this.cache.clear();
    await this.producer?.close().catch(() => undefined);
    await this.store?.close().catch(() => undefined);
    this.producer = undefined;
    this.store = undefined;
  }

  /** The next input offsets committed so far (for lag monitoring). */
  inputPositions(): Readonly<Record<string, number>> {
    return this.positions;
  }

  /** Holds new batches (a rebalance started) until `resume`. */
  suspend(): void {
    this.suspended = true;
  }

  resume(): void {
    this.suspended = false;
  }

  /**
   * The committed state of a workflow, or null; for reads served by the owner. It waits for a batch
   * being committed to reach the store, so a caller that has seen a reply (committed with its
   * batch) reads a state at least as new as that reply.
   */
  async describe(workflowKey: string): Promise<MutableStateSnapshot | null> {
    await this.batchInFlight;
    return this.loadState(workflowKey);
  }

  /** The local store (reads of history and visibility), once the shard has been restored. */
  get localStore(): ShardStore | undefined {
    return this.ready ? this.store : undefined;
  }

  private async run(): Promise<void> {
    const { deps } = this;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        if (this.suspended) {
          await sleep(20, signal);
          continue;
        }
        const waitMs = await this.msUntilNextTimer();
        const records = await deps.consumer.take(deps.shard, { maxRecords: deps.limits.maxRecords, maxBytes: deps.limits.maxBytes, waitMs, signal });
        if (signal.aborted || this.suspended) {
          if (records.length > 0) deps.consumer.seek(deps.shard, this.positions);
          continue;
        }
        const timers = await this.dueTimers();
        if (records.length === 0 && timers.length === 0) continue;
        const batch = this.commitBatch(records, timers);
        this.batchInFlight = batch.then(() => undefined, () => undefined);
        const result = await batch;
        deps.onBatch?.(deps.shard, result);
        this.scheduleLagCommit();
      } catch (error) {
        if (signal.aborted) return;
        this.abort.abort(error);
        this.cache.clear();
        deps.onFailure(deps.shard, error instanceof FencedError ? 'lost' : 'corrupted', error);
        return;
      }
    }
  }

  /**
   * Commits the group positions (read only by lag monitoring; the real ones are in the changelog)
   * at most every LAG_COMMIT_INTERVAL_MS: a commit per batch cost two broker round trips per
   * transaction for figures nobody reads that often.
   */
  private scheduleLagCommit(): void {
    if (this.lagCommitTimer) return;
    this.lagCommitTimer = setTimeout(() => {
      this.lagCommitTimer = undefined;
      if (!this.abort.signal.aborted) void this.deps.consumer.commitPositions(this.deps.shard, this.positions).catch(() => undefined);
    }, LAG_COMMIT_INTERVAL_MS);
  }

  /** Runs one batch and, once it is committed and in the store, brings the cache and positions up to date. */
  private async commitBatch(records: LogRecord[], timers: TimerEntry[]): Promise<BatchResult> {
    const result = await runBatch({
      ...this.deps,
      producer: this.producer!,
      store: this.store!,
      records,
      timers,
      positions: this.positions,
      loadState: (key) => this.loadState(key),
    });
    for (const [key, state] of result.states) this.cache.set(key, state);
    this.rememberIdleTimers(result);
    this.positions = result.positions;
    return result;
  }

  private async loadState(key: string): Promise<MutableStateSnapshot | null> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const raw = await this.store!.get(Keyspace.state, key);
    const state = raw ? await this.deps.serde.decode(mutableStateSnapshotCodec, raw) : null;
    this.cache.set(key, state);
    return state;
  }

  private async restoredPositions(): Promise<Record<string, number>> {
    const positions: Record<string, number> = { [this.deps.catalog.commands]: 0, [this.deps.catalog.commandsInternal]: 0 };
    const raw = await this.store!.get(Keyspace.state, POSITIONS_KEY);
    if (raw) {
      for (const p of (await this.deps.serde.decode(shardPositionsCodec, raw)).positions) positions[p.topic] = p.offset;
    }
    return positions;
  }

  /**
   * Timer entries that fired without effect. The index is derived from the state, so this only
   * happens if the state machine disagrees with its own `timersOf`; skipping them (until the
   * workflow's state changes) keeps such a disagreement from becoming a busy loop.
   */
  private readonly idleTimers = new Map<string, string>();

  private rememberIdleTimers(result: BatchResult): void {
    for (const [timerKey, workflowKey] of this.idleTimers) if (result.states.has(workflowKey)) this.idleTimers.delete(timerKey);
    for (const entry of result.idleTimers) this.idleTimers.set(timerStoreKey(entry.workflowKey, entry.timer), entry.workflowKey);
  }

  /** Timers due now, oldest first. Shard time never goes below the wall clock. */
  private async dueTimers(): Promise<TimerEntry[]> {
    const due: TimerEntry[] = [];
    const until = timersDueBefore(this.deps.clock());
    for await (const [key, value] of this.store!.entries(Keyspace.timers, { lt: until, limit: this.deps.limits.maxTimers })) {
      if (!this.idleTimers.has(key)) due.push(JSON.parse(value.toString('utf8')) as TimerEntry);
    }
    return due;
  }

  private async msUntilNextTimer(): Promise<number> {
    for await (const [key] of this.store!.entries(Keyspace.timers, { limit: this.idleTimers.size + 1 })) {
      if (this.idleTimers.has(key)) continue;
      const fireTime = Number(key.slice(0, key.indexOf('/')));
      return Math.max(0, Math.min(this.deps.limits.idleWaitMs, fireTime - this.deps.clock()));
    }
    return this.deps.limits.idleWaitMs;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
