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
import { RetriableLogError } from '../../errors.js';
import { toLogRecord } from './partition-reader.js';

const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How long `members` waits for the coordinator, and how old an answer may serve when it cannot. */
const MEMBERS_DEADLINE_MS = 3_000;
const MEMBERS_STALE_MS = 30_000;
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
  private consumer: Consumer;
  private readonly states = new Map<number, PartitionState>();
  private readonly arrivals = new EventEmitter();
  private owned: number[] = [];
  /** What this member held when it last left to rejoin (advertised until the new join lands). */
  private heldBeforeRejoin: readonly number[] = [];
  private generationCount = 0;
  /** Emits `confirmed` whenever the coordinator confirms membership (a join or a heartbeat). */
  private readonly membership = new EventEmitter();
  private lastMembers: { at: number; members: GroupMember[] } | undefined;
  private listener: AssignmentListener | undefined;
  private readonly maxBufferedBytes: number;
  private stopped = false;
  /** Offsets waiting for the next coalesced commit, by `topic:partition`. */
  private readonly pendingCommits = new Map<string, { topic: string; partition: number; offset: string }>();
  private commitFlush: Promise<void> | undefined;
  private lastFlush: Promise<void> = Promise.resolve();

  constructor(
    private readonly kafka: Kafka,
    private readonly admin: () => Promise<Admin>,
    private readonly options: GroupConsumerOptions,
    private readonly consumerSettings: { maxBytesPerPartition: number; maxWaitTimeMs: number },
  ) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.arrivals.setMaxListeners(0);
    this.membership.setMaxListeners(0);
    this.consumer = this.createConsumer();
  }

  private createConsumer(): Consumer {
    const consumer = this.kafka.consumer({
      groupId: this.options.groupId,
      // While rejoining, advertise what was held, so the sticky assignor can give it back.
      partitionAssigners: [coPartitionedAssigner(() => ({ endpoint: this.options.endpoint, owned: this.owned.length > 0 ? this.owned : this.heldBeforeRejoin }))],
      sessionTimeout: this.options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS,
      // A survivor learns of a rebalance from its next heartbeat's answer: a short interval lets it
      // rejoin soon after a dead member's session expired (and gives a 6 s session 12 chances).
      heartbeatInterval: 500,
      rebalanceTimeout: 30_000,
      maxWaitTimeInMs: this.consumerSettings.maxWaitTimeMs,
      maxBytesPerPartition: this.consumerSettings.maxBytesPerPartition,
      maxBytes: this.consumerSettings.maxBytesPerPartition * 4,
      readUncommitted: false,
      allowAutoTopicCreation: false,
    });
    // Events of a consumer replaced by a rejoin are ignored.
    const current = () => consumer === this.consumer;
    const { GROUP_JOIN, REBALANCING, CRASH, HEARTBEAT } = consumer.events;
    consumer.on(REBALANCING, () => current() && this.listener?.onRebalanceStarted?.());
    consumer.on(GROUP_JOIN, (event) => {
      if (!current()) return;
      this.onJoin(event.payload.memberAssignment);
      this.membership.emit('confirmed');
    });
    consumer.on(HEARTBEAT, () => current() && this.membership.emit('confirmed'));
    consumer.on(CRASH, (event) => {
      if (current() && !event.payload.restart) this.lostEverything(event.payload.error);
    });
    return consumer;
  }

  async start(listener: AssignmentListener): Promise<void> {
    this.listener = listener;
    await this.run(this.consumer);
  }

  private async run(consumer: Consumer): Promise<void> {
    await consumer.connect();
    await this.subscribe(consumer);
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: async (payload) => {
        if (consumer === this.consumer) this.onBatch(payload);
      },
    });
  }

  generation(): number {
    return this.generationCount;
  }

  confirmMembership(signal?: AbortSignal): Promise<number> {
    return new Promise((resolve, reject) => {
      const onConfirmed = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.generationCount);
      };
      const onAbort = () => {
        this.membership.off('confirmed', onConfirmed);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      this.membership.once('confirmed', onConfirmed);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * KafkaJS cannot be asked to rejoin, so the member leaves (its consumer disconnects, sending
   * LeaveGroup) and a new consumer joins in its place, advertising the partitions held before.
   */
  async rejoin(): Promise<void> {
    if (this.stopped) return;
    this.heldBeforeRejoin = this.owned;
    this.revokeAll();
    const previous = this.consumer;
    this.consumer = this.createConsumer();
    await previous.disconnect().catch(() => undefined);
    if (!this.stopped) await this.run(this.consumer);
  }

  /**
   * Subscribes, retrying retriable errors for a while: a topic created a moment ago may not be known
   * yet to the node the metadata request reaches (UNKNOWN_TOPIC_OR_PARTITION on a fresh cluster).
   */
  private async subscribe(consumer: Consumer): Promise<void> {
    const deadline = Date.now() + SUBSCRIBE_RETRY_MS;
    for (;;) {
      try {
        await consumer.subscribe({ topics: [...this.options.topics], fromBeginning: true });
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
      if (remaining <= 0 || options.signal?.aborted) return [];
      // A stopped consumer (its log closed under a reader that was not) waits out the wait as the
      // embedded one does, so a loop that keeps taking does not spin.
      await this.waitForArrival(partition, remaining, options.signal);
      if (this.stopped) return [];
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
    const offsets = await admin.fetchOffsets({ groupId: this.options.groupId, topics: [...this.options.topics] }).catch((error: unknown) => {
      throw logError(`reading the committed positions of ${this.options.groupId}`, error);
    });
    const positions: Record<string, number> = {};
    for (const { topic, partitions } of offsets) {
      const committed = Number(partitions.find((p) => p.partition === partition)?.offset ?? -1);
      positions[topic] = committed >= 0 ? committed : 0;
    }
    return positions;
  }

  /**
   * The group's members, asked of the coordinator with a short deadline. While the coordinator
   * cannot answer (a broker down, a coordinator moving) the last answer serves for a while, since
   * requests that find owners through it must not hang; past that the failure is retriable.
   */
  async members(): Promise<GroupMember[]> {
    try {
      const admin = await this.admin();
      const { groups } = await withDeadline(admin.describeGroups([this.options.groupId]), MEMBERS_DEADLINE_MS, 'describing the group');
      const members = (groups[0]?.members ?? []).map((m) => describeMember(m, this.options.topics[0]!));
      this.lastMembers = { at: Date.now(), members };
      return members;
    } catch (error) {
      if (this.lastMembers && Date.now() - this.lastMembers.at < MEMBERS_STALE_MS) return this.lastMembers.members;
      throw logError(`describing consumer group ${this.options.groupId}`, error);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Revoke first, as a rebalance would: owners stop their loops before the disconnect (a take on a
    // stopped consumer waits out its wait and returns nothing).
    this.lostEverything();
    await this.consumer.disconnect();
  }

  private onJoin(memberAssignment: Record<string, number[]>): void {
    this.generationCount++;
    this.heldBeforeRejoin = [];
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
    if (added.length > 0) this.listener?.onAssigned(added, this.generationCount);
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
    this.revokeAll();
    this.listener?.onStopped?.(error);
  }

  /** Revokes every partition held, as a rebalance that takes them all would. */
  private revokeAll(): void {
    const lost = this.owned;
    this.owned = [];
    this.states.clear();
    if (lost.length > 0) this.listener?.onRevoked(lost);
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

/** `work`, or a retriable timeout after `ms` (the work itself goes on and is ignored). */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RetriableLogError(`${what} took over ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
