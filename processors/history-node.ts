import type { TopicCatalog } from '../topics/catalog.js';
import type { GroupConsumer, GroupMember, Log } from '../topics/log/log.js';
import type { Serde } from '../topics/serde/index.js';
import type { HistoryConfig } from './history/index.js';
import type { BatchResult } from './shard-batch.js';
import { ShardProcessor, type BatchLimits } from './shard-processor.js';
import { TaskTopics } from './task-topics.js';

/** Settings of one engine node's history processing. */
export interface HistoryNodeOptions {
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly clock: () => number;
  /** Where the shard stores live: one LevelDB per shard below it. */
  readonly dataDirectory: string;
  /** This node's gateway URL, advertised to the other members. */
  readonly endpoint: string;
  /** The history consumer group; default `<prefix>-history`. Only tests of split-brain change it. */
  readonly groupId?: string;
  readonly limits?: Partial<BatchLimits>;
  /** Fixed settings, or a function read at every batch (the namespace registry's current view). */
  readonly history?: HistoryConfig | (() => HistoryConfig);
  readonly transactionTimeoutMs?: number;
  readonly onBatch?: (shard: number, result: BatchResult) => void;
  /** Diagnostics: shard lifecycle and failures. */
  readonly onShardEvent?: (event: { shard: number; kind: 'started' | 'stopped' | 'lost' | 'corrupted' | 'start-failed'; error?: unknown }) => void;
}

const DEFAULT_LIMITS: BatchLimits = { maxRecords: 500, maxBytes: 4 * 1024 * 1024, idleWaitMs: 100, maxTimers: 500 };

/**
 * One engine node's share of the history processing: joins the history consumer group, runs a
 * shard processor per assigned shard, stops it on revocation, and re-acquires a corrupted shard
 * only while this node is still assigned it. Work on one shard is serialised; shards run in parallel.
 */
export class HistoryNode {
  private consumer: GroupConsumer | undefined;
  private readonly processors = new Map<number, ShardProcessor>();
  /** Per-shard chain of lifecycle operations, so a start never overlaps a stop of the same shard. */
  private readonly lifecycles = new Map<number, Promise<void>>();
  private readonly taskTopics: TaskTopics;
  private stopped = false;

  constructor(private readonly options: HistoryNodeOptions) {
    this.taskTopics = new TaskTopics(options.log.admin, options.catalog);
  }

  /** Joins the group; shards start as they are assigned. */
  async start(): Promise<void> {
    const { catalog, log, endpoint } = this.options;
    const groupId = this.options.groupId ?? `${catalog.prefix}-history`;
    this.consumer = log.groupConsumer({ groupId, topics: [catalog.commands, catalog.commandsInternal], endpoint });
    await this.consumer.start({
      onRebalanceStarted: () => this.processors.forEach((p) => p.suspend()),
      onRevoked: (shards) => shards.forEach((s) => this.enqueue(s, () => this.stopShard(s))),
      onAssigned: (shards) => shards.forEach((s) => this.enqueue(s, () => this.startShard(s))),
      // Shards this node kept go on once the rebalance is over (whether or not it gained any).
      onRebalanceCompleted: () => this.processors.forEach((p) => p.resume()),
      onStopped: () => [...this.processors.keys()].forEach((s) => this.enqueue(s, () => this.stopShard(s))),
    });
  }

  /** Shards whose processor is running here. */
  ownedShards(): number[] {
    return [...this.processors.keys()].sort((a, b) => a - b);
  }

  /** The running processor of a shard, if this node owns it. */
  processor(shard: number): ShardProcessor | undefined {
    return this.processors.get(shard);
  }

  /** Group members with their endpoints and shards (to find a shard's owner). */
  async members(): Promise<GroupMember[]> {
    return this.consumer ? this.consumer.members() : [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.consumer?.stop();
    for (const shard of [...this.processors.keys()]) this.enqueue(shard, () => this.stopShard(shard));
    await Promise.all([...this.lifecycles.values()]);
  }

  private enqueue(shard: number, work: () => Promise<void>): void {
    const next = (this.lifecycles.get(shard) ?? Promise.resolve()).then(work, work);
    this.lifecycles.set(shard, next.catch(() => undefined));
  }

  private async startShard(shard: number): Promise<void> {
    if (this.stopped || this.processors.has(shard) || !this.consumer?.assignment().includes(shard)) return;
    const o = this.options;
    const history = o.history;
    const processor = new ShardProcessor({
      // A getter, so each batch (its deps are spread per batch) sees the registry's latest settings.
      get history(): HistoryConfig | undefined {
        return typeof history === 'function' ? history() : history;
      },
      shard,
      log: o.log,
      consumer: this.consumer,
      catalog: o.catalog,
      serde: o.serde,
      clock: o.clock,
      dataDirectory: o.dataDirectory,
      limits: { ...DEFAULT_LIMITS, ...o.limits },
      taskTopics: this.taskTopics,
      transactionTimeoutMs: o.transactionTimeoutMs ?? 10_000,
      onFailure: (s, remedy, error) => this.onFailure(s, remedy, error),
      ...(o.onBatch ? { onBatch: o.onBatch } : {}),
    });
    this.processors.set(shard, processor);
    try {
      await processor.start();
      o.onShardEvent?.({ shard, kind: 'started' });
    } catch (error) {
      this.processors.delete(shard);
      await processor.stop();
      o.onShardEvent?.({ shard, kind: 'start-failed', error });
      // Retry while the shard is still ours: a broker hiccup must not leave a shard unowned.
      setTimeout(() => this.enqueue(shard, () => this.startShard(shard)), 1_000).unref();
    }
  }

  private async stopShard(shard: number): Promise<void> {
    const processor = this.processors.get(shard);
    if (!processor) return;
    this.processors.delete(shard);
    await processor.stop();
    this.options.onShardEvent?.({ shard, kind: 'stopped' });
  }

  /** 'lost': stop and wait for a fresh assignment. 'corrupted': stop, then re-acquire if still assigned. */
  private onFailure(shard: number, remedy: 'lost' | 'corrupted', error: unknown): void {
    this.options.onShardEvent?.({ shard, kind: remedy, error });
    this.enqueue(shard, () => this.stopShard(shard));
    if (remedy === 'corrupted') this.enqueue(shard, () => this.startShard(shard));
  }
}
