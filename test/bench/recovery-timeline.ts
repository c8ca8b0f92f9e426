/**
 * The arithmetic of W4 (recovery), kept pure so it can be tested: a per-second timeline of
 * offered and completed workflows, and the recovery time after the kill.
 */

/** One second of the W4 run, counted from the start of the load: [second, second + 1). */
export interface TimelineSecond {
  readonly second: number;
  /** Workflows offered (start commands sent) in this second. */
  readonly offered: number;
  /** Workflows whose result reached the load generator in this second. */
  readonly completed: number;
}

/** How recovery is judged; see {@link recoverySeconds}. */
export interface RecoveryCriterion {
  /** Fraction of the offered rate a second must reach. Default 0.9. */
  readonly fraction?: number;
  /** Consecutive seconds that must each reach it. Default 3. */
  readonly seconds?: number;
}

/** Counts offered and completed workflows per second from `begin` (epoch ms) over `seconds` seconds. */
export function perSecondTimeline(begin: number, seconds: number, offeredAt: readonly number[], completedAt: readonly number[]): TimelineSecond[] {
  const offered = new Array<number>(seconds).fill(0);
  const completed = new Array<number>(seconds).fill(0);
  const bucket = (at: number) => Math.floor((at - begin) / 1000);
  for (const at of offeredAt) if (bucket(at) >= 0 && bucket(at) < seconds) offered[bucket(at)]!++;
  for (const at of completedAt) if (bucket(at) >= 0 && bucket(at) < seconds) completed[bucket(at)]!++;
  return offered.map((o, second) => ({ second, offered: o, completed: completed[second]! }));
}

/** The measurements {@link recoverySeconds} judges (epoch ms). */
export interface RecoveryInput {
  readonly killAt: number;
  /** When arrivals stopped: only windows that end by then count, so draining the backlog with no new load is not mistaken for recovery. */
  readonly loadEndsAt: number;
  readonly ratePerSecond: number;
  readonly completedAt: readonly number[];
}

/**
 * Recovery time: the seconds from the kill to the start of the first run of `seconds` (default 3)
 * consecutive one-second windows, the first beginning at the kill itself and the last ending
 * while load is still offered, in each of which at least `fraction` (default 90 %) of the offered
 * rate completed — for example at 20 workflows/s, three seconds in a row with at least 18
 * completions each. It has a resolution of one second and counts completions where the load
 * generator sees them (the result reply), so it includes the engine's restart, its catching up on
 * the commands that arrived while it was down, and the replies' way back. Each second must pass
 * on its own so that one burst of backlog cannot carry a window in which the engine was still
 * down for most of the time.
 *
 * Returns `null` when there is no such run (the engine did not recover while load was offered).
 */
export function recoverySeconds(input: RecoveryInput, criterion: RecoveryCriterion = {}): number | null {
  const fraction = criterion.fraction ?? 0.9;
  const run = criterion.seconds ?? 3;
  const windows = Math.floor((input.loadEndsAt - input.killAt) / 1000);
  const counts = new Array<number>(Math.max(0, windows)).fill(0);
  for (const at of input.completedAt) {
    const k = Math.floor((at - input.killAt) / 1000);
    if (k >= 0 && k < counts.length) counts[k]!++;
  }
  let streak = 0;
  for (let k = 0; k < counts.length; k++) {
    streak = counts[k]! >= fraction * input.ratePerSecond ? streak + 1 : 0;
    if (streak === run) return k - run + 1;
  }
  return null;
}

/** The longest time (ms) between two consecutive completions from `from` on (epoch ms); the downtime as the client saw it. */
export function longestCompletionGapMs(from: number, completedAt: readonly number[]): number {
  const sorted = [from, ...completedAt.filter((at) => at >= from)].sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < sorted.length; i++) gap = Math.max(gap, sorted[i]! - sorted[i - 1]!);
  return gap;
}
