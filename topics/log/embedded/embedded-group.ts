import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { LogbookError } from '../../errors.js';
import { assignCoPartitioned } from '../co-partitioned-assignor.js';
import type {
  AssignmentListener,
  GroupConsumer,
  GroupConsumerOptions,
  GroupMember,
  InputPositions,
  LogRecord,
  TakeOptions,
} from '../log.js';
import type { EmbeddedLog } from './embedded-log.js';

/** In-process group coordination for the embedded log: same assignor, same callbacks as Kafka. */
export class EmbeddedGroups {
  private readonly groups = new Map<string, { generation: number; members: Map<string, EmbeddedGroupConsumer> }>();

  constructor(private readonly log: EmbeddedLog) {}

  consumer(options: GroupConsumerOptions): GroupConsumer {
    return new EmbeddedGroupConsumer(this.log, options, this);
  }

  join(member: EmbeddedGroupConsumer): void {
    const group = this.groups.get(member.groupId) ?? { generation: 0, members: new Map() };
    this.groups.set(member.groupId, group);
    group.members.set(member.memberId, member);
    this.rebalance(member.groupId);
  }

  leave(member: EmbeddedGroupConsumer): void {
    const group = this.groups.get(member.groupId);
    if (!group?.members.delete(member.memberId)) return;
    this.rebalance(member.groupId);
  }

  membersOf(groupId: string): GroupMember[] {
    const group = this.groups.get(groupId);
    return [...(group?.members.values() ?? [])].map((m) => ({ memberId: m.memberId, endpoint: m.endpoint, partitions: m.assignment() }));
  }

  async stopAll(): Promise<void> {
    for (const group of this.groups.values()) for (const member of [...group.members.values()]) await member.stop();
  }

  private rebalance(groupId: string): void {
    const group = this.groups.get(groupId)!;
    group.generation++;
    const members = [...group.members.values()];
    if (members.length === 0) return;
    const partitionCount = members[0]!.partitionCount();
    members.forEach((m) => m.rebalanceStarted());
    const plan = assignCoPartitioned(
      members.map((m) => ({ memberId: m.memberId, owned: m.assignment() })),
      partitionCount,
    );
    for (const m of members) m.applyAssignment(plan.get(m.memberId) ?? [], group.generation);
  }
}

/** A member of an embedded consumer group. Reads straight from the log's store on `take`. */
export class EmbeddedGroupConsumer implements GroupConsumer {
  readonly memberId = randomUUID();
  readonly groupId: string;
  readonly endpoint: string;
  private readonly topics: readonly string[];
  private owned: number[] = [];
  private readonly positions = new Map<number, Map<string, number>>();
  private readonly paused = new Set<number>();
  private listener: AssignmentListener | undefined;
  private readonly wake = new EventTarget();
  private generationCount = 0;
  private joined = false;

  constructor(
    private readonly log: EmbeddedLog,
    options: GroupConsumerOptions,
    private readonly groups: EmbeddedGroups,
  ) {
    this.groupId = options.groupId;
    this.endpoint = options.endpoint;
    this.topics = options.topics;
  }

  partitionCount(): number {
    const counts = new Set(this.topics.map((t) => this.log.topicSpec(t).partitions));
    if (counts.size !== 1) {
      throw new LogbookError('NOT_CO_PARTITIONED', `topics ${this.topics.join(', ')} must have the same partition count`);
    }
    return [...counts][0]!;
  }

  async start(listener: AssignmentListener): Promise<void> {
    this.partitionCount();
    this.listener = listener;
    this.joined = true;
    this.groups.join(this);
  }

  generation(): number {
    return this.generationCount;
  }

  /** In one process the group's view is this member's own: a member that has not left belongs to it. */
  async confirmMembership(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    return this.generationCount;
  }

  async rejoin(): Promise<void> {
    if (!this.joined) return;
    const held = this.owned;
    this.groups.leave(this);
    this.owned = [];
    this.positions.clear();
    if (held.length > 0) this.listener?.onRevoked(held);
    this.groups.join(this);
  }

  assignment(): readonly number[] {
    return [...this.owned];
  }

  rebalanceStarted(): void {
    this.listener?.onRebalanceStarted?.();
  }

  applyAssignment(partitions: readonly number[], generation: number): void {
    this.generationCount = generation;
    const revoked = this.owned.filter((p) => !partitions.includes(p));
    const added = partitions.filter((p) => !this.owned.includes(p));
    this.owned = [...partitions].sort((a, b) => a - b);
    for (const p of revoked) {
      this.positions.delete(p);
      this.paused.delete(p);
    }
    if (revoked.length > 0) this.listener?.onRevoked(revoked);
    if (added.length > 0) this.listener?.onAssigned(added, generation);
    this.listener?.onRebalanceCompleted?.();
    this.wake.dispatchEvent(new Event('change'));
  }

  seek(partition: number, positions: InputPositions): void {
    if (!this.owned.includes(partition)) return;
    this.positions.set(partition, new Map(this.topics.map((t) => [t, positions[t] ?? 0])));
    this.paused.delete(partition);
    this.wake.dispatchEvent(new Event('change'));
  }

  pause(partition: number): void {
    this.paused.add(partition);
  }

  resume(partition: number): void {
    this.paused.delete(partition);
    this.wake.dispatchEvent(new Event('change'));
  }

  async take(partition: number, options: TakeOptions): Promise<LogRecord[]> {
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const records = await this.readAvailable(partition, options);
      if (records.length > 0 || options.signal?.aborted) return records;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return [];
      await this.waitForAppend(partition, remaining, options.signal);
    }
  }

  async commitPositions(partition: number, positions: InputPositions): Promise<void> {
    await this.log.commitGroupPositions(this.groupId, partition, positions);
  }

  async committedPositions(partition: number): Promise<InputPositions> {
    return this.log.groupPositions(this.groupId, partition, this.topics);
  }

  async members(): Promise<GroupMember[]> {
    return this.groups.membersOf(this.groupId);
  }

  async stop(): Promise<void> {
    this.joined = false;
    const owned = this.owned;
    this.groups.leave(this);
    this.owned = [];
    if (owned.length > 0) {
      this.listener?.onRevoked(owned);
    }
    this.positions.clear();
    this.wake.dispatchEvent(new Event('change'));
  }

  private async readAvailable(partition: number, options: TakeOptions): Promise<LogRecord[]> {
    const positions = this.positions.get(partition);
    if (!positions || this.paused.has(partition)) return [];
    const out: LogRecord[] = [];
    let bytes = 0;
    for (const topic of this.topics) {
      if (out.length >= options.maxRecords || bytes >= options.maxBytes) break;
      const from = positions.get(topic)!;
      const records = await this.log.readRange(topic, partition, from, Number.MAX_SAFE_INTEGER, options.maxRecords - out.length);
      // A seek or revocation during the read makes these records stale.
      if (this.positions.get(partition) !== positions || positions.get(topic) !== from) return [];
      for (const record of records) {
        const size = (record.value?.length ?? 0) + (record.key?.length ?? 0);
        if (out.length > 0 && bytes + size > options.maxBytes) break;
        out.push(record);
        bytes += size;
        positions.set(topic, record.offset + 1);
      }
    }
    return out;
  }

  private async waitForAppend(partition: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([
        ...this.topics.map((t) => once(this.log.appended, `${t}/${partition}`, { signal: ac.signal })),
        once(this.wake, 'change', { signal: ac.signal }),
      ]);
    } catch {
      // Timed out or aborted: the caller re-checks and returns.
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      ac.abort();
    }
  }
}
