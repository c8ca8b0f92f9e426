import type { ShardStore } from '../../state-stores/shard-store.js';
import { Keyspace, timerStoreKey, timersDueBefore, type TimerEntry } from './store-layout.js';

/**
 * The due timers of one shard, read from its store's timer index. Entries that fired without
 * effect (or failed) are remembered as idle and skipped until their workflow's state changes: the
 * index is derived from the state, so an idle entry means the machine disagrees with its own
 * `timersOf`, and skipping it keeps that from becoming a busy loop.
 *
 * The fire time of the next entry that is not idle is kept between commits: the index changes only
 * when a commit writes states (it is derived from them), so until the next commit a loop that waits
 * for input and then looks for due timers needs one scan of the index, not two, and an idle shard
 * none at all.
 */
export class ShardTimers {
  /** Idle timer-index keys → their workflow key. */
  private readonly idle = new Map<string, string>();
  /** Fire time of the first entry that is not idle (Infinity: none), or undefined when the index may have changed since. */
  private nextFireTime: number | undefined;

  /** Timers due at `now`, oldest first, at most `limit`. */
  async due(store: ShardStore, now: number, limit: number): Promise<TimerEntry[]> {
    if (this.nextFireTime !== undefined && this.nextFireTime > now) return [];
    const due: TimerEntry[] = [];
    for await (const [key, value] of store.entries(Keyspace.timers, { lt: timersDueBefore(now), limit })) {
      if (!this.idle.has(key)) due.push(JSON.parse(value.toString('utf8')) as TimerEntry);
    }
    return due;
  }

  /** How long to wait for input before the next timer falls due, at most `idleWaitMs`. */
  async msUntilNext(store: ShardStore, now: number, idleWaitMs: number): Promise<number> {
    this.nextFireTime ??= await this.firstFireTime(store);
    return Math.max(0, Math.min(idleWaitMs, this.nextFireTime - now));
  }

  /** After a commit: forget idle entries of workflows whose state changed, remember the new ones. */
  remember(result: { readonly states: ReadonlyMap<string, unknown>; readonly idleTimers: readonly TimerEntry[] }): void {
    if (result.states.size === 0 && result.idleTimers.length === 0) return;
    this.nextFireTime = undefined;
    for (const [timerKey, workflowKey] of this.idle) if (result.states.has(workflowKey)) this.idle.delete(timerKey);
    for (const entry of result.idleTimers) this.idle.set(timerStoreKey(entry.workflowKey, entry.timer), entry.workflowKey);
  }

  clear(): void {
    this.idle.clear();
    this.nextFireTime = undefined;
  }

  /** At most `idle.size` entries are idle, so one more than that reaches the first one that is not. */
  private async firstFireTime(store: ShardStore): Promise<number> {
    for await (const [key] of store.entries(Keyspace.timers, { limit: this.idle.size + 1 })) {
      if (!this.idle.has(key)) return Number(key.slice(0, key.indexOf('/')));
    }
    return Infinity;
  }
}
