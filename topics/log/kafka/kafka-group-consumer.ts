import { EventEmitter, once } from 'node:events';
import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type {
  AssignmentListener,
  GroupConsumer,
  GroupConsumerOptions,
  GroupMember,
  InputPositions,
  LogRecord,
  TakeOptions,
} from '../log.js';
import { coPartitionedAssigner, describeMember } from './co-partitioned-protocol.js';
import { logError } from './kafka-errors.js';
import { toLogRecord } from './partition-reader.js';

const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How long a commit waits for others to share its request. */
const COMMIT_COALESCE_MS = 20;
/** See `GroupConsumerOptions.sessionTimeoutMs`. */
const DEFAULT_SESSION_TIMEOUT_MS = 6_000;
/** How long a subscription is retried while the cluster does not know its topics yet. */
const SUBSCRIBE_RETRY_MS = 30_000;

/** Per-partition delivery state: where each input continues and what is buffered for `take`. */
interface PartitionState {
  readonly expected: Map<string, number>;
  buffer: LogRecord[];
  bufferedBytes: number;
  ownerPaused: boolean;
  backpressured: boolean;
}

/**
 * Group consumption of co-partitioned topics on KafkaJS. `eachBatch` only appends to per-partition
 * buffers and returns, so processing never delays the heartbeat. Positions are ours: KafkaJS
 * re-reads group offsets after every rebalance, so retained partitions are re-sought to our
 * positions and anything before them is dropped.
 */
export class KafkaGroupConsumer implements GroupConsumer {
  private readonly consumer: Consumer;
  private readonly states = new Map<number, PartitionState>();
  private readonly arrivals = new EventEmitter();
  private owned: number[] = [];
  private generation = 0;
  private listener: AssignmentListener | undefined;
  private readonly maxBufferedBytes: number;
  private stopped = false;
  /** Offsets waiting for the next coalesced commit, by `topic:partition`. */
  private readonly pendingCommits = new Map<string, { topic: string; partition: number; offset: string }>();
  private commitFlush: Promise<void> | undefined;
  private lastFlush: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly admin: () => Promise<Admin>,
    private readonly options: GroupConsumerOptions,
    consumerSettings: { maxBytesPerPartition: number; maxWaitTimeMs: number },
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.arrivals.setMaxListeners(0);
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      partitionAssigners: [coPartitionedAssigner(() => ({ endpoint: options.endpoint, owned: this.owned }))],
      sessionTimeout: options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      // A survivor learns of a rebalance from its next heartbeat's answer: a short interval lets it
      // rejoin soon after a dead member's session expired (and gives a 6 s session 12 chances).
      heartbeatInterval: 500,
      rebalanceTimeout: 30_000,
      maxWaitTimeInMs: consumerSettings.maxWaitTimeMs,
      maxBytesPerPartition: consumerSettings.maxBytesPerPartition,
      maxBytes: consumerSettings.maxBytesPerPartition * 4,
      readUncommitted: false,
      allowAutoTopicCreation: false,
    });
  }

  async start(listener: AssignmentListener): Promise<void> {
    this.listener = listener;
    const { GROUP_JOIN, REBALANCING, CRASH } = this.consumer.events;
    this.consumer.on(REBALANCING, () => this.listener?.onRebalanceStarted?.());
    this.consumer.on(GROUP_JOIN, (event) => this.onJoin(event.payload.memberAssignment));
    this.consumer.on(CRASH, (event) => {
      if (!event.payload.restart) this.lostEverything(event.payload.error);
    });
    await this.consumer.connect();
    await this.subscribe();
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: async (payload) => this.onBatch(payload),
    });
  }

  /**
   * Subscribes, retrying retriable errors for a while: a topic created a moment ago may not be known
   * yet to the node the metadata request reaches (UNKNOWN_TOPIC_OR_PARTITION on a fresh cluster).
   */
  private async subscribe(): Promise<void> {
    const deadline = Date.now() + SUBSCRIBE_RETRY_MS;
    for (;;) {
      try {
        await this.consumer.subscribe({ topics: [...this.options.topics], fromBeginning: true });
        return;
      } catch (error) {
        const mapped = logError(`subscribing to ${this.options.topics.join(', ')}`, error);
        if (!mapped.retriable || Date.now() > deadline) throw mapped;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  assignment(): readonly number[] {
    return [...this.owned];
  }

  seek(partition: number, positions: InputPositions): void {
    if (!this.owned.includes(partition)) return;
    const state = this.freshState();
    for (const topic of this.options.topics) {
      const offset = positions[topic] ?? 0;
      state.expected.set(topic, offset);
      this.consumer.seek({ topic, partition, offset: String(offset) });
    }
    this.states.set(partition, state);
    this.setFetching(partition, true);
    this.arrivals.emit(String(partition));
  }

  pause(partition: number): void {
    const state = this.states.get(partition);
    if (state) state.ownerPaused = true;
    this.setFetching(partition, false);
  }

  resume(partition: number): void {
    const state = this.states.get(partition);
    if (!state) return;
    state.ownerPaused = false;
    if (!state.backpressured) this.setFetching(partition, true);
    this.arrivals.emit(String(partition));
  }

  async take(partition: number, options: TakeOptions): Promise<LogRecord[]> {
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const state = this.states.get(partition);
      if (state && !state.ownerPaused && state.buffer.length > 0) return this.drain(partition, state, options);
      const remaining = deadline - Date.now();
      if (remaining <= 0 || options.signal?.aborted || this.stopped) return [];
      await this.waitForArrival(partition, remaining, options.signal);
    }
  }

  async commitPositions(partition: number, positions: InputPositions): Promise<void> {
    if (!this.owned.includes(partition)) return;
    for (const [topic, offset] of Object.entries(positions)) this.pendingCommits.set(`${topic}:${partition}`, { topic, partition, offset: String(offset) });
    this.commitFlush ??= this.flushCommits();
    return this.commitFlush;
  }

  /**
   * Commits every pending offset in one request after a short window. KafkaJS looks the group
   * coordinator up for each `commitOffsets` call, so one call per partition cost two round trips
   * each; partitions committing in the same window now share them.
   */
  private async flushCommits(): Promise<void> {
    // One flush at a time, so an older offset never lands after a newer one.
    await this.lastFlush;
    await new Promise((resolve) => setTimeout(resolve, COMMIT_COALESCE_MS));
    // Only partitions still owned: one revoked during the window belongs to another member now.
    const offsets = [...this.pendingCommits.values()].filter((o) => this.owned.includes(o.partition));
    this.pendingCommits.clear();
    // Commits arriving from now on start the next flush.
    this.commitFlush = undefined;
    const sent = offsets.length > 0 ? this.consumer.commitOffsets(offsets) : Promise.resolve();
    this.lastFlush = sent.then(() => undefined, () => undefined);
    await sent;
  }

  async committedPositions(partition: number): Promise<InputPositions> {
    const admin = await this.admin();
    const offsets = await admin.fetchOffsets({ groupId: this.options.groupId, topics: [...this.options.topics] });
    const positions: Record<string, number> = {};
    for (const { topic, partitions } of offsets) {
      const committed = Number(partitions.find((p) => p.partition === partition)?.offset ?? -1);
      positions[topic] = committed >= 0 ? committed : 0;
    }
    return positions;
  }

  async members(): Promise<GroupMember[]> {
    const admin = await this.admin();
    const { groups } = await admin.describeGroups([this.options.groupId]);
    return (groups[0]?.members ?? []).map((m) => describeMember(m, this.options.topics[0]!));
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Revoke first, as a rebalance would: owners stop their loops before the disconnect, which
    // needs the event loop, instead of spinning on takes that a stopped consumer answers at once.
    this.lostEverything();
    await this.consumer.disconnect();
  }

  private onJoin(memberAssignment: Record<string, number[]>): void {
    this.generation++;
    const next = [...(memberAssignment[this.options.topics[0]!] ?? [])].sort((a, b) => a - b);
    const revoked = this.owned.filter((p) => !next.includes(p));
    const added = next.filter((p) => !this.owned.includes(p));
    this.owned = next;
    for (const p of revoked) this.states.delete(p);
    // New partitions stay paused until the owner has restored them and calls seek.
    for (const p of added) this.setFetching(p, false);
    // KafkaJS resets retained partitions to the group's committed offsets: put them back to ours.
    for (const [p, state] of this.states) {
      for (const [topic, offset] of state.expected) this.consumer.seek({ topic, partition: p, offset: String(offset) });
    }
    if (revoked.length > 0) this.listener?.onRevoked(revoked);
    if (added.length > 0) this.listener?.onAssigned(added, this.generation);
    this.listener?.onRebalanceCompleted?.();
  }

  private onBatch({ batch, resolveOffset }: EachBatchPayload): void {
    if (batch.messages.length > 0) resolveOffset(batch.lastOffset());
    const state = this.states.get(batch.partition);
    if (!state) return;
    const expected = state.expected.get(batch.topic) ?? 0;
    let next = expected;
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset < next) continue;
      const record = toLogRecord(batch.topic, batch.partition, message as never);
      state.buffer.push(record);
      state.bufferedBytes += (record.value?.length ?? 0) + (record.key?.length ?? 0);
      next = offset + 1;
    }
    if (next === expected) return;
    state.expected.set(batch.topic, next);
    if (state.bufferedBytes > this.maxBufferedBytes && !state.backpressured) {
      state.backpressured = true;
      this.setFetching(batch.partition, false);
    }
    this.arrivals.emit(String(batch.partition));
  }

  private drain(partition: number, state: PartitionState, options: TakeOptions): LogRecord[] {
    let count = 0;
    let bytes = 0;
    for (const record of state.buffer) {
      const size = (record.value?.length ?? 0) + (record.key?.length ?? 0);
      if (count >= options.maxRecords || (count > 0 && bytes + size > options.maxBytes)) break;
      count++;
      bytes += size;
    }
    const taken = state.buffer.splice(0, count);
    state.bufferedBytes -= bytes;
    if (state.backpressured && state.bufferedBytes < this.maxBufferedBytes / 2) {
      state.backpressured = false;
      if (!state.ownerPaused) this.setFetching(partition, true);
    }
    return taken;
  }

  private setFetching(partition: number, on: boolean): void {
    const topics = this.options.topics.map((topic) => ({ topic, partitions: [partition] }));
    if (on) this.consumer.resume(topics);
    else this.consumer.pause(topics);
  }

  private freshState(): PartitionState {
    return { expected: new Map(), buffer: [], bufferedBytes: 0, ownerPaused: false, backpressured: false };
  }

  private lostEverything(error?: unknown): void {
    const lost = this.owned;
    this.owned = [];
    this.states.clear();
    if (lost.length > 0) this.listener?.onRevoked(lost);
    this.listener?.onStopped?.(error);
    for (const p of lost) this.arrivals.emit(String(p));
  }

  private async waitForArrival(partition: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await once(this.arrivals, String(partition), { signal: ac.signal });
    } catch {
      // Timed out or aborted; the caller re-checks.
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
