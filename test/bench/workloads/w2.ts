import type { TableRow, Workload } from '../bench-context.js';
import { processMemory } from '../engine-probes.js';
import { runTimers, type TimerRunResult } from '../w2.js';
import type { Percentiles } from '../w1.js';

const MiB = 1024 * 1024;
/** Targets W2 is held against (reported, not enforced). */
const TARGET_P99_LATENESS_MS = 1_000;
const TARGET_STORE_BYTES_PER_WORKFLOW = 2 * 1024;

/** Hold of the "all waiting" part per workflow: it assumes the engine arms at least ~67 timers a second. */
const HOLD_MS_PER_WORKFLOW = 15;

/**
 * W2: N workflows each sleeping a random 1–30 s on a durable timer, then running one activity —
 * twice. "all waiting" first (so that compacting W2's own earlier data does not shrink the store
 * while it is measured): every delay gets a common hold
 * (N × 15 ms + 10 s) so that all N are started and waiting before the first is due; the store and
 * memory per waiting workflow are measured then. "spread" second, as specified: each delay counts
 * from the workflow's own start, so early timers fire while later workflows are still starting.
 */
export const w2Workload: Workload = {
  name: 'w2',
  description: 'timers: N workflows each sleep a random 1–30 s, then run one activity (all waiting, then spread)',
  backends: ['kafka', 'embedded'],
  async run({ client, engine, settings, log }) {
    const workflows = settings.size ?? (settings.quick ? 2_000 : 20_000);
    const base = { client, history: engine.history, engine, workflows, minDelayMs: 1_000, maxDelayMs: 30_000, log };
    const holdMs = workflows * HOLD_MS_PER_WORKFLOW + 10_000;
    log(`W2 all waiting: ${workflows} workflows, each sleeping ${(holdMs / 1000).toFixed(0)} s + a random 1–30 s`);
    const allWaiting = await runTimers({ ...base, holdMs });
    log(`W2 spread: ${workflows} workflows, each sleeping a random 1–30 s from its own start`);
    // The first part's data is still being compacted: the store is measured in the first part only.
    const spread = await runTimers({ ...base, measureStore: false }).catch((error: Error) => error);
    const memory = {
      figure: 'W2 engine RSS before / all waiting / peak',
      value: `${mib(allWaiting.engineMemory.before.rssBytes)} / ${mib(allWaiting.engineMemory.atMeasurement.rssBytes)} / ${mib((await processMemory(engine.pid)).peakRssBytes)} MiB`,
    };
    if (spread instanceof Error) {
      // The figures of the first part stand on their own: keep them, and fail the run.
      return {
        result: { allWaiting: withTargets(allWaiting), spread: { error: spread.message } },
        rows: [...rowsOf('all waiting', allWaiting), { figure: 'W2 spread', value: `FAILED: ${spread.message}` }, memory],
        failures: [`spread: ${spread.stack ?? spread.message}`],
      };
    }
    return {
      result: { allWaiting: withTargets(allWaiting), spread: withTargets(spread) },
      rows: [...rowsOf('all waiting', allWaiting), ...rowsOf('spread', spread), memory],
    };
  },
};

const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const ms = (p: Percentiles) => `${p.p50.toFixed(0)} / ${p.p99.toFixed(0)} / ${p.max.toFixed(0)} ms`;
const latenessMet = (r: TimerRunResult) => r.lateness.continuation.p99 <= TARGET_P99_LATENESS_MS;
const storeMet = (r: TimerRunResult) => r.store !== null && r.store.bytesPerWorkflow <= TARGET_STORE_BYTES_PER_WORKFLOW;

function withTargets(r: TimerRunResult) {
  return {
    ...r,
    targets: {
      p99ContinuationLatenessMs: { target: TARGET_P99_LATENESS_MS, met: latenessMet(r) },
      ...(r.store ? { storeBytesPerWaitingWorkflow: { target: TARGET_STORE_BYTES_PER_WORKFLOW, met: storeMet(r) } } : {}),
    },
  };
}

function rowsOf(label: string, r: TimerRunResult): TableRow[] {
  const m = r.atMeasurement;
  const rows: TableRow[] = [
    { figure: `W2 ${label}: starting ${r.workflows} timer workflows`, value: `${r.start.seconds.toFixed(1)} s (${r.start.startsPerSecond.toFixed(0)} starts/s, ${r.start.concurrency} in flight)` },
    {
      figure: `W2 ${label}: timer lateness p50 / p99 / max (due → the activity after it runs)`,
      value: `${ms(r.lateness.continuation)} (target p99 ≤ ${TARGET_P99_LATENESS_MS} ms: ${latenessMet(r) ? 'met' : 'not met'}); due → TimerFired ${ms(r.lateness.fire)}`,
    },
    { figure: `W2 ${label}: timers waiting at once (peak); arm latency p50 / p99 (start → TimerStarted)`, value: `${r.peakWaiting}; ${r.armLatencyMs.p50.toFixed(0)} / ${r.armLatencyMs.p99.toFixed(0)} ms` },
  ];
  if (r.store) {
    rows.push({
      figure: `W2 ${label}: state store per workflow, all started`,
      value: `${r.store.bytesPerWorkflow.toFixed(0)} B (target ≤ ${TARGET_STORE_BYTES_PER_WORKFLOW} B: ${storeMet(r) ? 'met' : 'not met'}; then ${m.waiting} waiting, ${m.notYetArmed} not yet armed, ${m.fired} fired)`,
    });
  }
  return rows;
}
