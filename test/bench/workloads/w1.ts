import type { Workload } from '../bench-context.js';
import { w1Latency, w1Rate, type RateStep } from '../w1.js';

/** W1: three sequential activities; latency one at a time, then the open-loop arrival-rate sweep. */
export const w1Workload: Workload = {
  name: 'w1',
  description: 'three sequential activities: latency one at a time, then an open-loop rate sweep',
  backends: ['kafka', 'embedded'],
  async run({ client, settings, log }) {
    log(`W1 latency: ${settings.latencyRuns} workflows one at a time`);
    const latency = await w1Latency(client, settings.latencyRuns, log);
    const sweep: RateStep[] = [];
    for (const rate of settings.rates) {
      log(`W1 throughput: ${rate} workflows/s offered for ${settings.stepSeconds} s`);
      const step = await w1Rate(client, rate, settings.stepSeconds, settings.stepSeconds * 2);
      sweep.push(step);
      log(`  completed ${step.completed}/${step.started} (${step.completedPerSecond.toFixed(1)}/s), p99 ${step.latency.p99.toFixed(0)} ms, kept up: ${step.keptUp}`);
      if (!step.keptUp) break;
    }
    const bestKeptUpPerSecond = Math.max(0, ...sweep.filter((s) => s.keptUp).map((s) => s.completedPerSecond));
    return {
      result: { latency, sweep, bestKeptUpPerSecond },
      rows: [
        { figure: 'W1 latency p50 / p95 / p99 (one at a time)', value: `${latency.p50.toFixed(0)} / ${latency.p95.toFixed(0)} / ${latency.p99.toFixed(0)} ms` },
        { figure: 'W1 throughput (highest rate kept up, p99 < 1 s)', value: `${bestKeptUpPerSecond.toFixed(1)} workflows/s` },
      ],
    };
  },
};
