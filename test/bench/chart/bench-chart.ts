import type { Chart, ChartPanel } from './svg-chart.js';

/**
 * The chart of one `npm run bench` result: a panel builder per workload, each reading only the
 * fields it draws from that workload's JSON result (so a result of an older shape, or a failed
 * workload's `{ error }`, simply yields no panel). A new workload adds its builder to
 * {@link PANEL_BUILDERS}; the order of that list is the order of the panels.
 */

/** Turns one workload's JSON result into panels (none when the result has nothing to draw). */
export type PanelBuilder = (result: unknown) => ChartPanel[];

/** The shape of W1's result that the chart reads (see workloads/w1.ts). */
interface W1Shape {
  readonly sweep: ReadonlyArray<{ readonly offeredPerSecond: number; readonly completedPerSecond: number; readonly latency: { readonly p99: number } }>;
}

/** The shape of W4's result that the chart reads (see recovery.ts). */
interface W4Shape {
  readonly offeredPerSecond: number;
  readonly killAtSecond: number;
  readonly restartedAtSecond: number | null;
  readonly recoveredAtSecond: number | null;
  readonly loadEndedAtSecond?: number;
  readonly timeline: ReadonlyArray<{ readonly second: number; readonly offered: number; readonly completed: number }>;
}

/** W1: offered against completed workflows/s per sweep step, and p99 latency per step. */
export function w1Panels(result: unknown): ChartPanel[] {
  const sweep = (result as Partial<W1Shape> | undefined)?.sweep;
  if (!Array.isArray(sweep) || sweep.length === 0) return [];
  return [
    {
      title: 'W1 throughput sweep: completed against offered',
      xLabel: 'offered workflows/s',
      yLabel: 'workflows/s',
      series: [
        { name: 'offered', style: 'dashed', points: sweep.map((s) => [s.offeredPerSecond, s.offeredPerSecond] as const) },
        { name: 'completed', points: sweep.map((s) => [s.offeredPerSecond, s.completedPerSecond] as const) },
      ],
    },
    {
      title: 'W1 p99 start-to-result latency per sweep step',
      xLabel: 'offered workflows/s',
      yLabel: 'p99 latency (ms)',
      series: [
        { name: 'p99 latency', points: sweep.map((s) => [s.offeredPerSecond, s.latency.p99] as const) },
        // The sweep's "kept up" bound (workloads/w1.ts): a step above it does not count.
        { name: 'kept-up bound (1 s)', style: 'dashed', points: sweep.map((s) => [s.offeredPerSecond, 1_000] as const) },
      ],
    },
  ];
}

/** W4: completions per second around the kill -9, with the kill, the restart, the recovery and the end of the load marked. */
export function w4Panels(result: unknown): ChartPanel[] {
  const r = result as Partial<W4Shape> | undefined;
  if (!r || !Array.isArray(r.timeline) || typeof r.killAtSecond !== 'number') return [];
  // Bucket k holds [k, k+1) s: drawn at its middle so markers at fractional seconds line up.
  const middle = (second: number) => second + 0.5;
  const markers = [{ x: r.killAtSecond, label: 'kill -9' }];
  if (typeof r.restartedAtSecond === 'number') markers.push({ x: r.restartedAtSecond, label: 'engine ready' });
  if (typeof r.recoveredAtSecond === 'number') markers.push({ x: r.recoveredAtSecond, label: 'recovered' });
  if (typeof r.loadEndedAtSecond === 'number') markers.push({ x: r.loadEndedAtSecond, label: 'load stops' });
  return [
    {
      title: `W4 recovery: W1 load at ${r.offeredPerSecond ?? '?'} workflows/s, engine killed with SIGKILL`,
      xLabel: 'seconds since the load began',
      yLabel: 'workflows per second',
      series: [
        { name: 'completed', style: 'bars', points: r.timeline.map((b) => [middle(b.second), b.completed] as const) },
        { name: 'offered', style: 'dashed', points: r.timeline.map((b) => [middle(b.second), b.offered] as const) },
      ],
      markers,
    },
  ];
}

/** Every workload's panel builder, by the workload name its result is stored under. */
export const PANEL_BUILDERS: ReadonlyArray<{ readonly workload: string; readonly panels: PanelBuilder }> = [
  { workload: 'w1', panels: w1Panels },
  { workload: 'w4', panels: w4Panels },
];

/** The chart of a whole bench result (the JSON object run.ts writes). */
export function benchChart(run: Readonly<Record<string, unknown>>): Chart {
  const settings = (run.settings ?? {}) as { backend?: string; shards?: number };
  const machine = (run.machine ?? {}) as { cpus?: number; cpuModel?: string; node?: string };
  return {
    title: `Logbook benchmark ${String(run.startedAt ?? '')}`.trim(),
    subtitle: `${settings.backend ?? '?'} backend, ${settings.shards ?? '?'} shards; ${machine.cpus ?? '?'} × ${machine.cpuModel ?? '?'}, node ${machine.node ?? '?'}`,
    panels: PANEL_BUILDERS.flatMap((b) => (run[b.workload] === undefined ? [] : b.panels(run[b.workload]))),
  };
}
