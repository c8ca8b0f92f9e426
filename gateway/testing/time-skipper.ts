/**
 * Time skipping for tests: engine time is a {@link VirtualClock}, and while a test awaits a
 * workflow result the {@link TimeSkipper} moves it to the next deadline whenever nothing is
 * running — no workflow task pending, no activity attempt due — so a 30-day sleep takes moments.
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Engine } from '../engine.js';
import { listExecutions } from '../visibility-listing.js';

/** Real time plus an offset that only grows. */
export class VirtualClock {
  private offsetMs = 0;

  /** The clock's time, ms since the epoch. */
  readonly now = (): number => Date.now() + this.offsetMs;

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`time moves forward only; got ${ms} ms`);
    this.offsetMs += ms;
  }

  /** Moves the clock forward to `time` (no-op when it is already there). */
  advanceTo(time: number): void {
    this.advance(Math.max(0, time - this.now()));
  }
}

/** How often the skipper looks at the open runs while a result is awaited. */
const POLL_MS = 50;
/** Idle polls in a row before time moves (a run just started may not be listed yet). */
const IDLE_POLLS_BEFORE_SKIP = 2;

/** Moves a {@link VirtualClock} to the next deadline while results are awaited and nothing runs. */
export class TimeSkipper {
  private unlocked = 0;
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly engine: Engine,
    private readonly clock: VirtualClock,
    private readonly namespace: string,
  ) {}

  /** Runs `wait` with time skipping unlocked (Temporal unlocks it while a result is awaited). */
  async whileUnlocked<T>(wait: () => Promise<T>): Promise<T> {
    this.unlocked++;
    this.loop ??= this.run().finally(() => (this.loop = undefined));
    try {
      return await wait();
    } finally {
      this.unlocked--;
    }
  }

  /** Stops skipping for good. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    let idlePolls = 0;
    while (this.unlocked > 0 && !this.stopped) {
      await delay(POLL_MS);
      const next = await this.nextDeadlineIfIdle().catch(() => undefined);
      if (next === undefined) {
        idlePolls = 0;
        continue;
      }
      if (++idlePolls < IDLE_POLLS_BEFORE_SKIP) continue;
      idlePolls = 0;
      this.clock.advanceTo(next);
    }
  }

  /** The earliest deadline of the open runs, or undefined when one of them has work to do now (or none waits on time). */
  private async nextDeadlineIfIdle(): Promise<number | undefined> {
    const now = this.clock.now();
    let next = Infinity;
    let pageToken: string | undefined;
    do {
      const page = await listExecutions(this.engine, { namespace: this.namespace, query: "ExecutionStatus = 'Running'", pageSize: 1000, ...(pageToken ? { nextPageToken: pageToken } : {}) }, true);
      for (const row of page.executions) {
        const state = await this.engine.describe(this.namespace, row.workflowId);
        if (!state || state.executionInfo.status !== 'Running') continue;
        const deadline = nextDeadline(state, now);
        if (deadline === 'busy') return undefined;
        next = Math.min(next, deadline);
      }
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return Number.isFinite(next) ? next : undefined;
  }
}

/** When a run next needs time to pass (a timer, an activity's retry, a start delay, a timeout), or `busy` when it has work now. */
function nextDeadline(state: MutableStateSnapshot, now: number): number | 'busy' {
  if (state.pendingWorkflowTask !== null || state.bufferedEvents.length > 0) return 'busy';
  let next = Infinity;
  for (const activity of state.pendingActivities) {
    // An attempt that is due is running or waiting for a worker: work, not a wait.
    if (activity.currentAttemptScheduledTime <= now) return 'busy';
    next = Math.min(next, activity.currentAttemptScheduledTime);
  }
  for (const timer of state.pendingTimers) next = Math.min(next, timer.expiryTime);
  const info = state.executionInfo;
  // A run waiting out its start delay (a retry's backoff, a cron run's wait) has had no workflow task yet.
  if (info.lastWorkflowTaskCompletedEventId === null && info.executionTime > now) next = Math.min(next, info.executionTime);
  for (const expiry of [info.workflowRunExpirationTime, info.workflowExecutionExpirationTime]) if (expiry !== null && expiry > now) next = Math.min(next, expiry);
  return next;
}
