import type { CommandClient } from '../../sdk/client/command-client.js';

/**
 * Workload W1: workflows of three sequential trivial activities with ~200-byte payloads.
 * (a) latency, one workflow at a time; (b) throughput, an open-loop arrival-rate sweep.
 */

const PAYLOAD = 'x'.repeat(200);

/** Percentiles of a sample, in ms. */
export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Percentiles of unsorted samples. */
export function percentiles(samples: readonly number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return { count: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s.at(-1) ?? Number.NaN };
}

/** Starts one W1 workflow and resolves with its run id and start-to-result time in ms. */
async function runOne(client: CommandClient, id: string, timeoutMs: number, workflowType = 'threeSteps'): Promise<{ runId: string; ms: number }> {
  const started = performance.now();
  // The caller of a workflow it waits for: the start and the wait in one write.
  const { start: reply, result } = await client.execute({ workflowId: id, workflowType, taskQueue: 'bench', args: [PAYLOAD], timeoutMs });
  if (reply.kind !== 'StartAccepted') throw new Error(`start of ${id}: ${reply.kind} ${reply.failure?.message ?? ''}`);
  if (result?.executionStatus !== 'Completed') throw new Error(`${id} closed as ${result?.executionStatus ?? result?.kind}`);
  return { runId: reply.runId!, ms: performance.now() - started };
}

/** W1a: `runs` workflows of `workflowType` one after another (after `warmup` unmeasured ones); also the measured runs. */
export async function w1Latency(
  client: CommandClient,
  runs: number,
  onProgress: (line: string) => void,
  warmup = 5,
  workflowType = 'threeSteps',
): Promise<{ latency: Percentiles; runs: Array<{ workflowId: string; runId: string }> }> {
  const samples: number[] = [];
  const measured: Array<{ workflowId: string; runId: string }> = [];
  for (let i = 0; i < runs + warmup; i++) {
    const workflowId = `w1-latency-${Date.now()}-${i}`;
    const { runId, ms } = await runOne(client, workflowId, 30_000, workflowType);
    if (i >= warmup) {
      samples.push(ms);
      measured.push({ workflowId, runId });
    }
    if (i % 10 === 0) onProgress(`W1 latency: ${i + 1}/${runs + warmup}`);
  }
  return { latency: percentiles(samples), runs: measured };
}

/** One step of the throughput sweep. */
export interface RateStep {
  readonly offeredPerSecond: number;
  readonly started: number;
  readonly completed: number;
  readonly completedPerSecond: number;
  readonly latency: Percentiles;
  /** All started workflows completed within the drain window after arrivals stopped. */
  readonly keptUp: boolean;
}

/**
 * W1b: arrivals at a fixed rate for `seconds` (open loop: a start does not wait for the previous
 * one), then up to `drainSeconds` for stragglers. Completed workflows only are counted; a step
 * "keeps up" when p99 < 1 s and nothing is left behind.
 */
export async function w1Rate(client: CommandClient, rate: number, seconds: number, drainSeconds: number): Promise<RateStep> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const begin = performance.now();
  let started = 0;
  while (performance.now() - begin < seconds * 1000) {
    const due = Math.floor(((performance.now() - begin) / 1000) * rate);
    while (started < due) {
      const id = `w1-rate-${rate}-${Date.now()}-${started++}`;
      pending.push(runOne(client, id, (seconds + drainSeconds) * 1000).then(({ ms }) => void latencies.push(ms), () => undefined));
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  // The drain timer is cleared once everything completed: a pending timer would hold the process open after the report.
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(pending), new Promise((r) => (drainTimer = setTimeout(r, drainSeconds * 1000)))]);
  clearTimeout(drainTimer);
  const elapsed = (performance.now() - begin) / 1000;
  const latency = percentiles(latencies);
  return {
    offeredPerSecond: rate,
    started,
    completed: latencies.length,
    completedPerSecond: latencies.length / elapsed,
    latency,
    keptUp: latencies.length === started && latency.p99 < 1_000,
  };
}

/** What a closed loop of W1 workflows did in its window. */
export interface ClosedLoopStep {
  readonly concurrency: number;
  readonly seconds: number;
  /** Workflows that completed inside the window. */
  readonly completed: number;
  readonly completedPerSecond: number;
  /** Start-to-result time of the workflows completed in the window. */
  readonly latency: Percentiles;
  /** Workflows that failed or timed out (the loop goes on without them). */
  readonly failed: number;
}

/**
 * W1 closed loop: `concurrency` callers, each starting a workflow and waiting for its result before
 * starting the next, for `seconds`. The caller count, not an offered rate, sets the load, so the
 * figure is what the engine completes when it is the bottleneck. `onWindowStart` runs after
 * `warmupSeconds` (a caller snapshots counters there), `onWindowEnd` when the window closes; only
 * workflows that complete inside the window count. `workflowType` is `threeSteps` unless given
 * (`threeLocalSteps` runs the steps as local activities).
 */
export async function w1ClosedLoop(
  client: CommandClient,
  concurrency: number,
  warmupSeconds: number,
  seconds: number,
  options: { workflowType?: string; onWindowStart?: () => Promise<void>; onWindowEnd?: () => Promise<void> } = {},
): Promise<ClosedLoopStep> {
  const latencies: number[] = [];
  let failed = 0;
  let counting = false;
  let stopping = false;
  let sequence = 0;
  const caller = async (slot: number) => {
    while (!stopping) {
      const id = `w1-closed-${slot}-${Date.now().toString(36)}-${sequence++}`;
      try {
        const { ms } = await runOne(client, id, 60_000, options.workflowType);
        if (counting && !stopping) latencies.push(ms);
      } catch {
        if (counting) failed++;
        // A caller whose start fails at once (the engine is gone) must not spin: wait before the next.
        await sleep(100);
      }
    }
  };
  const callers = Array.from({ length: concurrency }, (_, slot) => caller(slot));
  await sleep(warmupSeconds * 1000);
  await options.onWindowStart?.();
  counting = true;
  const from = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - from) / 1000;
  stopping = true;
  await options.onWindowEnd?.();
  await Promise.all(callers);
  return { concurrency, seconds: elapsed, completed: latencies.length, completedPerSecond: latencies.length / elapsed, latency: percentiles(latencies), failed };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
