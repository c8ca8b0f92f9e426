import type { TopicCatalog } from '../../topics/catalog.js';
import { FencedError } from '../../topics/errors.js';
import type { GroupConsumer, Log, LogRecord, TransactionalProducer } from '../../topics/log/log.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { mutableStateSnapshotCodec, shardPositionsCodec } from '../../topics/serde/index.js';
import type { TaskTopics } from '../../topics/task-topics.js';
import { RestorePhase } from '../../state-stores/restore-machine.js';
import type { ShardStore, RestoreProgress } from '../../state-stores/shard-store.js';
import { MAX_CHECKPOINT_AGE_MS, openShardStore } from './shard-store-opening.js';
import type { HistoryConfig } from '../history/index.js';
import { BatchCommit, type BatchResult } from './batch-commit.js';
import type { ShardLifecycle} from './shard-lifecycle.js';
import { ShardState } from './shard-lifecycle.js';
import { ShardTimers } from './shard-timers.js';
import { StateCache } from './state-cache.js';
import { Keyspace, POSITIONS_KEY, type TimerEntry } from './store-layout.js';
import type { SuspectInputs } from './suspect-inputs.js';

/** How often a shard commits its group positions for lag monitoring. */
const LAG_COMMIT_INTERVAL_MS = 500;
/** An idle shard re-dates its store's checkpoints this often (see ShardStore.refreshCheckpoints). */
const CHECKPOINT_REFRESH_MS = 10 * 60_000;
/** Back-off of a batch whose preparation met a retriable failure (a registry or broker outage). */
const RETRY_BACKOFF_MS = { first: 100, max: 5_000 } as const;

/** Limits of one batch (one transaction). */
export interface BatchLimits {
  readonly maxRecords: number;
  readonly maxBytes: number;
  /** Longest wait for input when no timer is due sooner. */
  readonly idleWaitMs: number;
  /** Due timers fired per batch. */
  readonly maxTimers: number;
}

/** Why a shard task stopped, by the remedy it needs (Kafka Streams' TaskCorrupted / TaskMigrated). */
export type ShardRemedy = 'corrupted' | 'migrated';

/** What a shard task needs; passed in so it is testable and backend-agnostic. */
export interface ShardTaskDeps {
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
  readonly lifecycle: ShardLifecycle;
  /** Inputs suspected of failing this shard; kept by the manager across re-initialisations. */
  readonly suspects: SuspectInputs;
  /** Called once when the processing loop stops on a failure, with the remedy it needs. */
  readonly onFailure: (remedy: ShardRemedy, error: unknown) => void;
  readonly onBatch?: (result: BatchResult) => void;
  /** A batch met a retriable failure before anything was sent and will be taken again. */
  readonly onRetry?: (error: unknown) => void;
  readonly onRestoreProgress?: (progress: RestoreProgress) => void;
}

/**
 * One shard on this node, after Kafka Streams' `StreamTask`: fence, restore, seek, then bounded
 * batches of commands and due timers, each a {@link BatchCommit}. Its {@link ShardLifecycle} says
 * where it stands; any failure stops the loop at once and is reported with its remedy, and the
 * {@link ShardManager} decides what happens next. A task is re-initialised in place after it was
 * corrupted (a fresh producer re-fences, the store catches up from its checkpoint).
 */
export class ShardTask {
  private producer: TransactionalProducer | undefined;
  private store: ShardStore | undefined;
  private readonly cache = new StateCache(10_000);
  private readonly timers = new ShardTimers();
  private abort = new AbortController();
  private loop: Promise<void> | undefined;
  /**
   * The batch whose commit has been issued, until it is applied to the store and cache (reads wait
   * for it). A batch still being prepared or sent is not waited for: nobody can have seen its
   * replies yet, and a read should not wait for a slow transaction it cannot observe.
   */
  private batchInFlight: Promise<void> = Promise.resolve();
  private suspendRequested = false;
  /** The next offsets of the inputs, as committed in the state changelog. */
  private positions: Record<string, number> = {};
  private lagCommitTimer: NodeJS.Timeout | undefined;
  private lastCommitAt = 0;

  constructor(private readonly deps: ShardTaskDeps) {}

  get shard(): number {
    return this.deps.shard;
  }

  get lifecycle(): ShardLifecycle {
    return this.deps.lifecycle;
  }

  /**
   * CREATED or CORRUPTED → RESTORING → RUNNING: fences (a fresh transactional producer), restores
   * the store from its checkpoint to the end, seeks the inputs to the restored positions and starts
   * the loop. The caller checked this node still holds the shard in `generation`.
   */
  async initialize(generation: number): Promise<void> {
    const { deps } = this;
    this.abort = new AbortController();
    deps.consumer.pause(deps.shard);
    // Fencing first: InitProducerId waits for the previous owner's open transaction to end, so the
    // restore below sees its outcome, and bumps the epoch so a zombie's next commit fails.
    this.producer = await deps.log.transactionalProducer(`${deps.catalog.prefix}-history-${deps.shard}`, { transactionTimeoutMs: deps.transactionTimeoutMs });
    // A rebalance that kept the shard here while it was fenced retagged it: go on under that generation.
    this.lifecycle.move(ShardState.Restoring, Math.max(generation, this.lifecycle.generation), 'fenced: the transactional id is ours');
    this.store = await openShardStore(deps);
    await this.store.restore(deps.log, {
      signal: this.abort.signal,
      maxCheckpointAgeMs: MAX_CHECKPOINT_AGE_MS,
      ...(deps.onRestoreProgress ? { onProgress: deps.onRestoreProgress } : {}),
    });
    if (this.abort.signal.aborted) return;
    this.positions = await this.restoredPositions();
    deps.suspects.onRestored(this.positions);
    deps.consumer.seek(deps.shard, this.positions);
    this.lastCommitAt = deps.clock();
    this.lifecycle.move(this.suspendRequested ? ShardState.Suspended : ShardState.Running, this.lifecycle.generation, 'restored: caught up with the changelog');
    this.loop = this.run();
  }

  /** Stops the loop and releases the producer and store (a failure or a clean close); never re-initialises anything. */
  async release(): Promise<void> {
    this.abort.abort(new Error(`shard ${this.deps.shard} stopped`));
    clearTimeout(this.lagCommitTimer);
    this.lagCommitTimer = undefined;
    await this.loop?.catch(() => undefined);
    this.loop = undefined;
    this.cache.clear();
    this.timers.clear();
    await this.producer?.close().catch(() => undefined);
    // A clean stop of a store that is current: re-date its checkpoints for the next restore here.
    if (this.lifecycle.serving) await this.store?.refreshCheckpoints().catch(() => undefined);
    await this.store?.close().catch(() => undefined);
    this.producer = undefined;
    this.store = undefined;
  }

  /** The next input offsets committed so far (for lag monitoring). */
  inputPositions(): Readonly<Record<string, number>> {
    return this.positions;
  }

  /** RUNNING → SUSPENDED: a rebalance started; no batch until {@link resume}. */
  suspend(): void {
    this.suspendRequested = true;
    if (this.lifecycle.state === ShardState.Running) this.lifecycle.move(ShardState.Suspended, this.lifecycle.generation, 'a rebalance started');
  }

  /** SUSPENDED → RUNNING under the generation the shard was kept in. */
  resume(generation: number): void {
    this.suspendRequested = false;
    this.lifecycle.retag(generation);
    if (this.lifecycle.state === ShardState.Suspended) this.lifecycle.move(ShardState.Running, generation, 'the rebalance ended and the shard stayed here');
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

  /** The local store (reads of history and visibility), only while the shard serves and its restore has completed. */
  get localStore(): ShardStore | undefined {
    return this.lifecycle.serving && this.store?.phase === RestorePhase.Completed ? this.store : undefined;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    let backoff = 0;
    while (!signal.aborted) {
      if (this.lifecycle.state !== ShardState.Running) {
        await sleep(20, signal);
        continue;
      }
      let records: LogRecord[] = [];
      try {
        records = await this.nextRecords(signal);
        if (signal.aborted || this.lifecycle.state !== ShardState.Running) {
          if (records.length > 0) this.deps.consumer.seek(this.deps.shard, this.positions);
          continue;
        }
        await this.runBatch(records);
        backoff = 0;
      } catch (error) {
        if (signal.aborted) return;
        if (isRetriable(error)) {
          // Nothing was sent: take the same inputs again after a pause.
          this.deps.onRetry?.(error);
          this.deps.consumer.seek(this.deps.shard, this.positions);
          backoff = Math.min(RETRY_BACKOFF_MS.max, backoff === 0 ? RETRY_BACKOFF_MS.first : backoff * 2);
          await sleep(backoff, signal);
          continue;
        }
        const failure = error instanceof BatchFailure ? error : new BatchFailure('corrupted', error);
        this.abort.abort(failure.cause);
        this.cache.clear();
        this.deps.onFailure(failure.remedy, failure.cause);
        return;
      }
    }
  }

  /** The next inputs: one at a time, without timers, while an earlier failure may have been an input's. */
  private async nextRecords(signal: AbortSignal): Promise<LogRecord[]> {
    const { consumer, shard, limits } = this.deps;
    const careful = this.deps.suspects.careful;
    const waitMs = careful ? limits.idleWaitMs : await this.timers.msUntilNext(this.store!, this.deps.clock(), limits.idleWaitMs);
    return consumer.take(shard, { maxRecords: careful ? 1 : limits.maxRecords, maxBytes: limits.maxBytes, waitMs, signal });
  }

  private async runBatch(records: LogRecord[]): Promise<void> {
    const { deps } = this;
    const timers: TimerEntry[] = deps.suspects.careful ? [] : await this.timers.due(this.store!, deps.clock(), deps.limits.maxTimers);
    if (records.length === 0 && timers.length === 0) return this.refreshIdleCheckpoints();
    let applied!: () => void;
    const committing = () => void (this.batchInFlight = new Promise<void>((resolve) => (applied = resolve)));
    try {
      const result = await this.commitBatch(records, timers, committing);
      if (result) deps.onBatch?.(result);
    } finally {
      applied?.();
    }
  }

  /** Prepares, commits and post-commits one batch; failures of the commit are {@link BatchFailure}s. */
  private async commitBatch(records: LogRecord[], timers: TimerEntry[], committing: () => void): Promise<BatchResult | undefined> {
    const { deps } = this;
    const context = { ...deps, store: this.store!, loadState: (key: string) => this.loadState(key) };
    let prepared: BatchCommit;
    try {
      prepared = await BatchCommit.prepare(context, { records, timers, positions: this.positions, suspects: deps.suspects });
    } catch (error) {
      if (isRetriable(error)) throw error;
      deps.suspects.onBatchFailed(records, error);
      throw new BatchFailure('corrupted', error);
    }
    if (prepared.empty) return this.afterCommit(prepared.result(), records);
    let receipt;
    try {
      receipt = await prepared.commit(this.producer!, committing);
    } catch (error) {
      if (error instanceof FencedError) throw new BatchFailure('migrated', error);
      deps.suspects.onBatchFailed(records, error);
      throw new BatchFailure('corrupted', error);
    }
    // Committed: whatever happens to the store now, these inputs are done.
    deps.suspects.onCommitted(records);
    try {
      await prepared.postCommit(this.store!, receipt);
    } catch (error) {
      throw new BatchFailure('corrupted', error);
    }
    this.lastCommitAt = deps.clock();
    return this.afterCommit(prepared.result(), records);
  }

  private afterCommit(result: BatchResult, records: LogRecord[]): BatchResult {
    for (const [key, state] of result.states) this.cache.set(key, state);
    this.timers.remember(result);
    this.positions = result.positions;
    if (records.length > 0) this.deps.suspects.onCommitted(records);
    this.scheduleLagCommit();
    return result;
  }

  /** See {@link ShardStore.refreshCheckpoints}: an owned, idle shard's store is still current. */
  private async refreshIdleCheckpoints(): Promise<void> {
    const now = this.deps.clock();
    if (now - this.lastCommitAt < CHECKPOINT_REFRESH_MS) return;
    this.lastCommitAt = now;
    await this.store!.refreshCheckpoints();
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
}

/** A failure of a batch that stops the shard, with the remedy it needs. */
class BatchFailure extends Error {
  constructor(
    readonly remedy: ShardRemedy,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** True for an error the log marks retriable (an outage, not the input): retried without re-fencing. */
function isRetriable(error: unknown): boolean {
  return !(error instanceof BatchFailure) && (error as { retriable?: unknown } | null)?.retriable === true;
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
