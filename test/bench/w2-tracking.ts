import type { HistoryReader } from './engine-probes.js';
import { phaseOf, type TimerPhase, type TimerRun } from './w2-timings.js';

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The runs' completions, awaited with a stall rule instead of a deadline: an overloaded engine
 * may take long, but a run where workflows are overdue and none completes for `stallMs` is stuck.
 */
export class Completion {
  /** Runs that completed so far. */
  completed = 0;
  private readonly pending: Promise<void>[] = [];
  private readonly failures: unknown[] = [];
  private firstDueAt = Number.POSITIVE_INFINITY;
  private lastCompletedAt = Date.now();

  constructor(private readonly stallMs: number) {}

  /** Tracks one run, expected to complete `dueInMs` from now. */
  expect(dueInMs: number, complete: () => Promise<void>): void {
    this.firstDueAt = Math.min(this.firstDueAt, Date.now() + dueInMs);
    this.pending.push(complete().then(() => {
      this.completed++;
      this.lastCompletedAt = Date.now();
    }, (error: unknown) => void this.failures.push(error)));
  }

  /** Throws if a run failed, or if runs are overdue and none completed for `stallMs`. */
  check(): void {
    if (this.failures.length > 0) throw this.failures[0];
    const now = Date.now();
    if (this.completed < this.pending.length && now - this.firstDueAt > this.stallMs && now - this.lastCompletedAt > this.stallMs) {
      throw new Error(`no workflow completed in ${this.stallMs / 1000} s (${this.completed}/${this.pending.length} completed)`);
    }
  }

  /** Resolves once every tracked run completed; rejects on a failed run or a stall. */
  async all(): Promise<void> {
    let done = false;
    const everything = Promise.all(this.pending).then(() => void (done = true));
    while (!done) {
      await Promise.race([everything, sleep(1_000)]);
      this.check();
    }
  }
}

/**
 * Estimates how many of the open runs are in each phase from the histories of a few of them
 * (reading all of them would load the engine under test). A sample is taken in the background;
 * the latest one answers.
 */
export class PhaseEstimator {
  private shares: Record<TimerPhase, number> | undefined;
  private sampling = false;

  constructor(
    private readonly history: HistoryReader,
    private readonly size = 16,
  ) {}

  /** Starts a new sample of `open` unless one is being taken. */
  refresh(open: readonly TimerRun[]): void {
    if (this.sampling || open.length === 0) return;
    this.sampling = true;
    const sample = Array.from({ length: Math.min(this.size, open.length) }, () => open[Math.floor(Math.random() * open.length)]!);
    void Promise.all(sample.map(async (run) => phaseOf(await this.history(run.workflowId, run.runId))))
      .then((phases) => {
        const share = (phase: TimerPhase) => phases.filter((p) => p === phase).length / phases.length;
        this.shares = { notYetArmed: share('notYetArmed'), waiting: share('waiting'), fired: share('fired') };
      }, () => undefined)
      .finally(() => (this.sampling = false));
  }

  /** The latest sample's shares applied to `open` runs, as text. */
  describe(open: number): string {
    const s = this.shares;
    if (!s) return 'phases not sampled yet';
    return `about ${Math.round(s.notYetArmed * open)} not yet armed, ${Math.round(s.waiting * open)} waiting, ${Math.round(s.fired * open)} fired`;
  }
}
