import type { BenchContext, Workload } from '../bench-context.js';
import { stepLatencies, transactionCount } from '../engine-figures.js';
import { percentiles, w1Latency, w1Rate, type RateStep } from '../w1.js';

/** A sweep step with the shard transactions the engine committed during it. */
interface MeasuredStep extends RateStep {
  /** Shard transactions per second, divided by the shard count. */
  readonly transactionsPerSecondPerShard: number;
  /** Inputs (commands and timers) per transaction. */
  readonly inputsPerTransaction: number;
}

/** W1: three sequential activities; latency one at a time, then the open-loop arrival-rate sweep. */
export const w1Workload: Workload = {
  name: 'w1',
  description: 'three sequential activities: latency one at a time, then an open-loop rate sweep',
  backends: ['kafka', 'embedded'],
  async run(context) {
    const { client, settings, log, engine } = context;
    log(`W1 latency: ${settings.latencyRuns} workflows one at a time`);
    const { latency, runs } = await w1Latency(client, settings.latencyRuns, log);
    const steps: number[] = [];
    for (const run of runs) steps.push(...stepLatencies(await engine.history(run.workflowId, run.runId)));
    const stepLatency = percentiles(steps);
    const sweep: MeasuredStep[] = [];
    for (const rate of settings.rates) {
      log(`W1 throughput: ${rate} workflows/s offered for ${settings.stepSeconds} s`);
      const step = await measuredStep(context, rate);
      sweep.push(step);
      log(
        `  completed ${step.completed}/${step.started} (${step.completedPerSecond.toFixed(1)}/s), p99 ${step.latency.p99.toFixed(0)} ms, ` +
          `${step.transactionsPerSecondPerShard.toFixed(1)} transactions/s per shard (${step.inputsPerTransaction.toFixed(1)} inputs each), kept up: ${step.keptUp}`,
      );
      if (!step.keptUp) break;
    }
    const kept = sweep.filter((s) => s.keptUp);
    const best = kept.reduce<MeasuredStep | undefined>((a, s) => (a && a.completedPerSecond >= s.completedPerSecond ? a : s), undefined);
    const bestKeptUpPerSecond = best?.completedPerSecond ?? 0;
    return {
      result: { latency, stepLatency, sweep, bestKeptUpPerSecond },
      rows: [
        { figure: 'W1 latency p50 / p95 / p99 (one at a time)', value: `${latency.p50.toFixed(0)} / ${latency.p95.toFixed(0)} / ${latency.p99.toFixed(0)} ms` },
        { figure: 'W1 step latency p50 / p99 (activity scheduled → result in the workflow)', value: `${stepLatency.p50.toFixed(0)} / ${stepLatency.p99.toFixed(0)} ms` },
        { figure: 'W1 throughput (highest rate kept up, p99 < 1 s)', value: `${bestKeptUpPerSecond.toFixed(1)} workflows/s` },
        {
          figure: 'W1 shard transactions at that rate',
          value: best ? `${best.transactionsPerSecondPerShard.toFixed(1)}/s per shard, ${best.inputsPerTransaction.toFixed(1)} inputs each` : 'no rate kept up',
        },
      ],
    };
  },
};

/** One sweep step, with the engine's transaction counters read before and after it. */
async function measuredStep({ client, settings, engine }: BenchContext, rate: number): Promise<MeasuredStep> {
  const before = transactionCount(await engine.metrics());
  const began = performance.now();
  const step = await w1Rate(client, rate, settings.stepSeconds, settings.stepSeconds * 2);
  const seconds = (performance.now() - began) / 1000;
  const after = transactionCount(await engine.metrics());
  const transactions = after.transactions - before.transactions;
  return {
    ...step,
    transactionsPerSecondPerShard: transactions / seconds / settings.shards,
    inputsPerTransaction: transactions > 0 ? (after.inputs - before.inputs) / transactions : 0,
  };
}
