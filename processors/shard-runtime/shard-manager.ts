import type { TopicCatalog } from '../../topics/catalog.js';
import { FencedError } from '../../topics/errors.js';
import type { GroupConsumer, GroupMember, Log } from '../../topics/log/log.js';
import type { Serde } from '../../topics/serde/index.js';
import { TaskTopics } from '../../topics/task-topics.js';
import type { RestoreProgress } from '../../state-stores/shard-store.js';
import type { HistoryConfig } from '../history/index.js';
import type { BatchResult } from './batch-commit.js';
import { ShardLifecycle, ShardState, type ShardTransition } from './shard-lifecycle.js';
import { ShardRecords, type ShardReport } from './shard-records.js';
import { ShardTask, type BatchLimits, type ShardRemedy } from './shard-task.js';
import { StandbyStores } from './standby-stores.js';

/** Settings of one engine node's history processing. */
export interface ShardManagerOptions {
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
  /** The group's session timeout: how long a dead node holds its shards. */
  readonly sessionTimeoutMs?: number;
  /** Creates task topics on first use, bounded per namespace (shared with the gateway). */
  readonly taskTopics?: TaskTopics;
  readonly onBatch?: (shard: number, result: BatchResult) => void;
  /** Every lifecycle move of every shard (logs, metrics). */
  readonly onTransition?: (transition: ShardTransition) => void;
  readonly onRestoreProgress?: (shard: number, progress: RestoreProgress) => void;
  /**
   * How often the stores of shards this node does not hold read their changelogs' tail (standby
   * stores, see standby-stores.ts), so a takeover restores only seconds of changelog; default
   * 5 s, 0 for none.
   */
  readonly standbyRefreshMs?: number;
}

const DEFAULT_STANDBY_REFRESH_MS = 5_000;

const DEFAULT_LIMITS: BatchLimits = { maxRecords: 500, maxBytes: 4 * 1024 * 1024, idleWaitMs: 100, maxTimers: 500 };
/** Back-off before re-fencing a corrupted shard, doubled per failure in a row. */
const RECOVERY_BACKOFF_MS = { first: 200, max: 30_000 } as const;
/** Back-off before rejoining the group after a shard was migrated, doubled per rejoin in quick succession. */
const REJOIN_BACKOFF_MS = { first: 100, max: 60_000 } as const;
/** Rejoins further apart than this start the back-off afresh. */
const REJOIN_CALM_MS = 120_000;

/**
 * One engine node's share of the history processing, after Kafka Streams' `TaskManager`: joins
 * the history consumer group, runs a {@link ShardTask} per assigned shard and reacts to each
 * failure by its remedy. A corrupted shard is released and re-fenced — only once the group has
 * confirmed this member still holds it in the same generation, so a stale re-initialisation never
 * fences the current owner. A shard fenced while this member still holds it (a transaction the
 * broker aborted for outliving its timeout, or another process with its transactional id) is
 * MIGRATED: closed, and the node rejoins the group so the coordinator settles who owns it.
 * Work on one shard is serialised; shards run in parallel.
 */
export class ShardManager {
  private consumer: GroupConsumer | undefined;
  private readonly records: ShardRecords;
  /** Per-shard chain of lifecycle operations, so a start never overlaps a stop of the same shard. */
  private readonly lifecycles = new Map<number, Promise<void>>();
  readonly taskTopics: TaskTopics;
  private readonly abort = new AbortController();
  private rejoining: Promise<void> | undefined;
  private rejoinsInRow = 0;
  private lastRejoinAt = 0;
  private standbys: StandbyStores | undefined;

  constructor(private readonly options: ShardManagerOptions) {
    this.taskTopics = options.taskTopics ?? new TaskTopics(options.log.admin, options.catalog);
    this.records = new ShardRecords(options.clock);
  }

  /** Joins the group; shards start as they are assigned. */
  async start(): Promise<void> {
    const { catalog, log, endpoint } = this.options;
    const groupId = this.options.groupId ?? `${catalog.prefix}-history`;
    this.consumer = log.groupConsumer({
      groupId,
      topics: [catalog.commands, catalog.commandsInternal],
      endpoint,
      ...(this.options.sessionTimeoutMs ? { sessionTimeoutMs: this.options.sessionTimeoutMs } : {}),
    });
    await this.consumer.start({
      onRebalanceStarted: () => this.records.tasks().forEach((t) => t.suspend()),
      onRevoked: (shards) => shards.forEach((s) => this.enqueue(s, () => this.close(s, 'the shard was revoked'))),
      onAssigned: (shards) => {
        this.standbys?.yieldTo(shards);
        shards.forEach((s) => this.enqueue(s, () => this.open(s)));
      },
      // Shards this node kept go on under the new generation (whether or not it gained any).
      onRebalanceCompleted: () => {
        const assigned = this.consumer!.assignment();
        this.records.tasks().filter((t) => assigned.includes(t.shard)).forEach((t) => t.resume(this.consumer!.generation()));
      },
      onStopped: () => this.records.shards().forEach((s) => this.enqueue(s, () => this.close(s, 'the group consumer stopped'))),
    });
    this.startStandbys();
  }

  private startStandbys(): void {
    const o = this.options;
    const everyMs = o.standbyRefreshMs ?? DEFAULT_STANDBY_REFRESH_MS;
    if (everyMs <= 0) return;
    const history = o.history;
    this.standbys = new StandbyStores({
      log: o.log,
      shards: o.catalog.shards,
      everyMs,
      site: (shard) => ({
        dataDirectory: o.dataDirectory, shard, catalog: o.catalog, serde: o.serde, clock: o.clock,
        ...(history === undefined ? {} : { history: typeof history === 'function' ? history() : history }),
      }),
      held: (shard) => this.records.task(shard) !== undefined || (this.consumer?.assignment().includes(shard) ?? false),
      enqueue: (shard, work) => this.enqueue(shard, work),
      signal: this.abort.signal,
    });
    this.standbys.start();
  }

  /** Shards assigned to this node and not closed, whatever their state. */
  ownedShards(): number[] {
    return this.records.shards();
  }

  /** The shards the group assigned to this node now, opened or not. */
  assignedShards(): number[] {
    return [...(this.consumer?.assignment() ?? [])];
  }

  /** The task of a shard this node holds, if any (reads check its `localStore`). */
  processor(shard: number): ShardTask | undefined {
    return this.records.task(shard);
  }

  /** Where every shard held here stands (health, metrics). */
  shardReports(): ShardReport[] {
    return this.records.reports();
  }

  /** Group members with their endpoints and shards (to find a shard's owner). */
  async members(): Promise<GroupMember[]> {
    return this.consumer ? this.consumer.members() : [];
  }

  async stop(): Promise<void> {
    this.abort.abort(new Error('the node is stopping'));
    this.standbys?.stop();
    await this.consumer?.stop();
    for (const shard of this.records.shards()) this.enqueue(shard, () => this.close(shard, 'the node is stopping'));
    await Promise.all([...this.lifecycles.values()]);
  }

  private enqueue(shard: number, work: () => Promise<void>): void {
    const next = (this.lifecycles.get(shard) ?? Promise.resolve()).then(work, work);
    this.lifecycles.set(shard, next.catch(() => undefined));
  }

  /** CREATED → … → RUNNING for a shard assigned to this node. */
  private async open(shard: number): Promise<void> {
    if (this.abort.signal.aborted || this.records.task(shard) || !this.consumer?.assignment().includes(shard)) return;
    const generation = this.consumer.generation();
    const lifecycle = new ShardLifecycle(shard, generation, this.options.clock, (t) => this.onTransition(t));
    const task = this.newTask(shard, lifecycle);
    this.records.add(shard, task);
    await this.initialize(task, generation);
  }

  private async initialize(task: ShardTask, generation: number): Promise<void> {
    try {
      await task.initialize(generation);
    } catch (error) {
      await this.onFailure(task, error instanceof FencedError ? 'migrated' : 'corrupted', error);
    }
  }

  private newTask(shard: number, lifecycle: ShardLifecycle): ShardTask {
    const o = this.options;
    const history = o.history;
    return new ShardTask({
      // A getter, so each batch (its deps are spread per batch) sees the registry's latest settings.
      get history(): HistoryConfig | undefined {
        return typeof history === 'function' ? history() : history;
      },
      shard,
      log: o.log,
      consumer: this.consumer!,
      catalog: o.catalog,
      serde: o.serde,
      clock: o.clock,
      dataDirectory: o.dataDirectory,
      limits: { ...DEFAULT_LIMITS, ...o.limits },
      taskTopics: this.taskTopics,
      transactionTimeoutMs: o.transactionTimeoutMs ?? 10_000,
      lifecycle,
      suspects: this.records.suspects(shard),
      onFailure: (remedy, error) => this.enqueue(shard, () => this.onFailure(this.records.task(shard), remedy, error)),
      onRetry: (error) => this.records.noteTrouble(shard, error),
      onBatch: (result) => o.onBatch?.(shard, result),
      onRestoreProgress: (progress) => {
        this.records.noteRestore(shard, progress);
        o.onRestoreProgress?.(shard, progress);
      },
    });
  }

  /** Reacts to a failed task by its remedy. */
  private async onFailure(task: ShardTask | undefined, remedy: ShardRemedy, error: unknown): Promise<void> {
    if (!task || task.lifecycle.state === ShardState.Closed) return;
    const { lifecycle } = task;
    this.records.noteTrouble(task.shard, error);
    if (remedy === 'migrated') {
      lifecycle.move(ShardState.Migrated, lifecycle.generation, 'fenced while this node holds the shard: its ownership is in doubt', error);
      await this.close(task.shard, 'migrated: the node rejoins the group');
      this.rejoin();
      return;
    }
    if (lifecycle.canMove(ShardState.Corrupted)) lifecycle.move(ShardState.Corrupted, lifecycle.generation, 'a send, commit, abort or store write failed: the outcome is unknown', error);
    await task.release();
    // The back-off runs outside the shard's queue, so a revocation meanwhile is not held up by it.
    const delay = this.records.recoveryDelay(task.shard, RECOVERY_BACKOFF_MS);
    setTimeout(() => this.enqueue(task.shard, () => this.recover(task)), delay).unref();
  }

  /** CORRUPTED → RESTORING, only while the group confirms this node still holds the shard in the same generation. */
  private async recover(task: ShardTask): Promise<void> {
    const shard = task.shard;
    if (this.records.task(shard) !== task || task.lifecycle.state !== ShardState.Corrupted) return;
    const generation = await this.confirmedGeneration();
    if (generation === undefined || generation !== task.lifecycle.generation || !this.consumer!.assignment().includes(shard)) {
      await this.close(shard, 'corrupted, and no longer held here in the same generation');
      return;
    }
    await this.initialize(task, generation);
  }

  private async confirmedGeneration(): Promise<number | undefined> {
    if (this.abort.signal.aborted || !this.consumer) return undefined;
    return this.consumer.confirmMembership(this.abort.signal).catch(() => undefined);
  }

  private async close(shard: number, reason: string): Promise<void> {
    const task = this.records.task(shard);
    if (!task) return;
    this.records.remove(shard);
    await task.release();
    if (task.lifecycle.state !== ShardState.Closed) task.lifecycle.move(ShardState.Closed, task.lifecycle.generation, reason);
  }

  /**
   * One rejoin at a time: shards migrated together share it. Rejoins in quick succession wait
   * longer each time, so two processes that fence each other (a second deployment on the same
   * topic prefix, a misconfiguration) hold the shards for ever longer turns instead of thrashing.
   */
  private rejoin(): void {
    if (this.rejoining || this.abort.signal.aborted) return;
    const now = this.options.clock();
    this.rejoinsInRow = now - this.lastRejoinAt > REJOIN_CALM_MS ? 0 : this.rejoinsInRow + 1;
    this.lastRejoinAt = now;
    const delay = Math.min(REJOIN_BACKOFF_MS.max, REJOIN_BACKOFF_MS.first * 2 ** this.rejoinsInRow);
    this.rejoining = (async () => {
      // Meanwhile the other shards fenced by the same event fail too, and this rejoin serves them all.
      await sleep(delay, this.abort.signal);
      await this.consumer?.rejoin().catch((error: unknown) => this.records.noteTrouble(-1, error));
    })().finally(() => (this.rejoining = undefined));
  }

  private onTransition(transition: ShardTransition): void {
    this.records.noteTransition(transition);
    this.options.onTransition?.(transition);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
