import type { ShardStore } from '../../state-stores/shard-store.js';
import { Keyspace, timerStoreKey, type TimerEntry } from './store-layout.js';

/** What a commit tells the timers about the index it changed. */
export interface TimerIndexChanges {
  /** Workflows whose state the commit wrote (their idle entries may fire again). */
  readonly states: ReadonlyMap<string, unknown>;
  /** Entries that fired without effect. */
  readonly idleTimers: readonly TimerEntry[];
  /** Timers the commit fired. */
  readonly timersFired: number;
  /** Timer-index keys the commit added. */
  readonly timerKeysAdded: readonly string[];
}

/**
 * The due timers of one shard, read from its store's timer index. Entries that fired without
 * effect (or failed) are remembered as idle and skipped until their workflow's state changes: the
 * index is derived from the state, so an idle entry means the machine disagrees with its own
 * `timersOf`, and skipping it keeps that from becoming a busy loop.
 *
 * Between scans the shard keeps a bound: no entry that is not idle fires before it. A commit
 * lowers the bound to the keys it added (the store reports them) and to the entries it makes
 * active again; one that removes timers leaves it, so the bound may be early, never late. Most
 * commits (an activity completed, a signal arrived) only remove and add deadlines later than the
 * bound, so a busy shard scans the index when a timer may be due, not once per commit. That
 * matters beyond the read itself: the head of the index is where deleted deadlines pile up until
 * LevelDB compacts them, and each scan from the start walks over them.
 */
export class ShardTimers {
  /** Idle timer-index keys → their workflow key. */
  private readonly idle = new Map<string, string>();
  /** No entry that is not idle fires before this (Infinity: none), or undefined when unknown. */
  private nextFireTime: number | undefined;

  /**
   * Timers due at `now`, oldest first, at most `limit`. A scan that finds none due learns when
   * the next one is (it read that far), so the wait after it needs no second scan.
   */
  async due(store: ShardStore, now: number, limit: number): Promise<TimerEntry[]> {
    if (this.nextFireTime !== undefined && this.nextFireTime > now) return [];
    const due: TimerEntry[] = [];
    let next = Infinity;
    // At most `idle.size` entries are idle, so this many reach `limit` due ones and one beyond.
    for await (const [key, value] of store.entries(Keyspace.timers, { limit: limit + this.idle.size + 1 })) {
      if (this.idle.has(key)) continue;
      const fireTime = fireTimeOf(key);
      if (fireTime > now || due.length === limit) {
        next = fireTime;
        break;
      }
      due.push(JSON.parse(value.toString('utf8')) as TimerEntry);
    }
    // Entries returned are still in the index until their batch commits (or fails): unknown until then.
    this.nextFireTime = due.length > 0 ? undefined : next;
    return due;
  }

  /** How long to wait for input before the next timer falls due, at most `idleWaitMs`. */
  async msUntilNext(store: ShardStore, now: number, idleWaitMs: number): Promise<number> {
    this.nextFireTime ??= await this.firstFireTime(store);
    return Math.max(0, Math.min(idleWaitMs, this.nextFireTime - now));
  }

  /** After a commit: lower the bound to what it added or made active again, and track idle entries. */
  remember(changes: TimerIndexChanges): void {
    if (changes.timersFired > 0) this.nextFireTime = undefined;
    for (const key of changes.timerKeysAdded) this.lowerBound(fireTimeOf(key));
    for (const [timerKey, workflowKey] of this.idle) {
      if (!changes.states.has(workflowKey)) continue;
      this.idle.delete(timerKey);
      this.lowerBound(fireTimeOf(timerKey));
    }
    for (const entry of changes.idleTimers) this.idle.set(timerStoreKey(entry.workflowKey, entry.timer), entry.workflowKey);
  }

  clear(): void {
    this.idle.clear();
    this.nextFireTime = undefined;
  }

  private lowerBound(fireTime: number): void {
    if (this.nextFireTime !== undefined) this.nextFireTime = Math.min(this.nextFireTime, fireTime);
  }

  /** At most `idle.size` entries are idle, so one more than that reaches the first one that is not. */
  private async firstFireTime(store: ShardStore): Promise<number> {
    for await (const [key] of store.entries(Keyspace.timers, { limit: this.idle.size + 1 })) {
      if (!this.idle.has(key)) return fireTimeOf(key);
    }
    return Infinity;
  }
}

/** The fire time a timer-index key starts with. */
function fireTimeOf(key: string): number {
  return Number(key.slice(0, key.indexOf('/')));
}
