import type { Workload } from '../bench-context.js';
import { runSignals } from '../w3.js';

const WORKFLOWS = 100;

/** W3: workflows each awaiting signals, sent concurrently across them with bounded in-flight. */
export const w3Workload: Workload = {
  name: 'w3',
  description: 'signals: 100 workflows each await their signals (--size: total signals), then complete',
  backends: ['kafka', 'embedded'],
  async run({ client, engine, settings, log }) {
    // --size counts signals in all, spread over the workflows (W3 is workflows × signals).
    const total = settings.size ?? (settings.quick ? 2_000 : 10_000);
    const workflows = Math.min(WORKFLOWS, total);
    const signalsPerWorkflow = Math.max(1, Math.round(total / workflows));
    const r = await runSignals({ client, history: engine.history, workflows, signalsPerWorkflow, log });
    return {
      result: r,
      rows: [
        { figure: `W3 signals accepted per second (${workflows} workflows × ${signalsPerWorkflow}, ${r.maxInFlight} in flight)`, value: `${r.signalsPerSecond.toFixed(0)} signals/s` },
        { figure: 'W3 signal → observed by the workflow p50 / p99', value: `${r.observedLatencyMs.p50.toFixed(0)} / ${r.observedLatencyMs.p99.toFixed(0)} ms` },
        { figure: 'W3 signal → accepted p50 / p99', value: `${r.ackLatencyMs.p50.toFixed(0)} / ${r.ackLatencyMs.p99.toFixed(0)} ms` },
      ],
    };
  },
};
