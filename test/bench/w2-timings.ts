import { forEachBounded, type BenchHistoryEvent, type HistoryReader } from './engine-probes.js';

/** A W2 run as the load generator knows it. */
export interface TimerRun {
  readonly workflowId: string;
  readonly runId: string;
  /** The timer's duration given as input. */
  readonly delayMs: number;
  /** The worker's wall clock when the activity after the timer ran, once the run completed. */
  continuedAt?: number;
}

/** Where a W2 run is, as its history tells. */
export type TimerPhase = 'notYetArmed' | 'waiting' | 'fired';

/** The phase of a run from its history. */
export function phaseOf(events: readonly BenchHistoryEvent[]): TimerPhase {
  if (events.some((e) => e.attributes.type === 'TimerFired')) return 'fired';
  return events.some((e) => e.attributes.type === 'TimerStarted') ? 'waiting' : 'notYetArmed';
}

/** The engine's timestamps of one run (history) with the worker's continuation time (result). */
export interface Timing {
  readonly startedAt: number;
  readonly armedAt: number;
  /** `TimerStarted` time + duration: the expiry the engine armed. */
  readonly due: number;
  readonly firedAt: number;
  readonly continuedAt: number | undefined;
}

/** Reads every run's history and pairs its engine timestamps with its continuation time. */
export async function readTimings(history: HistoryReader, runs: readonly TimerRun[]): Promise<Timing[]> {
  const timings: Timing[] = [];
  await forEachBounded(runs, 16, async (run) => {
    const events = await history(run.workflowId, run.runId);
    const find = (type: string): BenchHistoryEvent => {
      const event = events.find((e) => e.attributes.type === type);
      if (!event) throw new Error(`${run.workflowId} has no ${type} in its history`);
      return event;
    };
    const armed = find('TimerStarted');
    const duration = Number(armed.attributes.startToFireTimeoutMs);
    if (duration !== run.delayMs) throw new Error(`${run.workflowId} armed a ${duration} ms timer, not the ${run.delayMs} ms it was given`);
    timings.push({
      startedAt: find('WorkflowExecutionStarted').eventTime,
      armedAt: armed.eventTime,
      due: armed.eventTime + duration,
      firedAt: find('TimerFired').eventTime,
      continuedAt: run.continuedAt,
    });
  });
  return timings;
}

/** The most timers armed and not yet fired at any one instant. */
export function peakWaiting(timings: readonly Timing[]): number {
  // A timer that fires at the instant another is armed is counted as gone first.
  const edges = timings.flatMap((t) => [[t.armedAt, 1], [t.firedAt, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let waiting = 0;
  let peak = 0;
  for (const [, change] of edges) peak = Math.max(peak, (waiting += change));
  return peak;
}

/** How many runs were in each phase at `at`. */
export function phasesAt(timings: readonly Timing[], at: number): Record<TimerPhase, number> {
  return {
    notYetArmed: timings.filter((t) => t.armedAt > at).length,
    waiting: timings.filter((t) => t.armedAt <= at && t.firedAt > at).length,
    fired: timings.filter((t) => t.firedAt <= at).length,
  };
}

/**
 * Polls the histories of `runs` until each has armed its timer (workflow tasks are served roughly
 * in start order, so the last started are the last armed). `check` throws to give up (a stalled
 * run); an overloaded engine is otherwise given up to `timeoutMs`.
 */
export async function untilArmed(history: HistoryReader, runs: readonly TimerRun[], check: () => void, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const run of runs) {
    while (phaseOf(await history(run.workflowId, run.runId)) === 'notYetArmed') {
      check();
      if (Date.now() > deadline) throw new Error(`${run.workflowId} did not arm its timer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
