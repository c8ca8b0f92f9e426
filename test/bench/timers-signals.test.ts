import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import * as benchActivities from './workflows/activities.js';
import { localHistoryReader, type HistoryReader } from './engine-probes.js';
import { runTimers } from './w2.js';
import { runSignals } from './w3.js';

/** The W2 and W3 benchmarks, at a tiny size, through the real engine on the embedded backend. */
describe('the timer and signal benchmarks on the embedded engine', () => {
  let t: TestEngine;
  let data: string;
  let history: HistoryReader;
  const log = () => undefined;

  before(async () => {
    data = await mkdtemp(join(tmpdir(), 'logbook-bench-test-'));
    t = await startTestEngine('embedded', {
      workers: false,
      engine: { dataDirectory: data },
      extraWorkers: [{ taskQueue: 'bench', workflowsPath: fileURLToPath(new URL('./workflows/index.ts', import.meta.url)), activities: benchActivities }],
    });
    history = localHistoryReader((workflowId, runId) => t.engine.history('default', workflowId, runId), t.engine.dataConverter);
  });
  after(async () => {
    await t.stop();
    await rm(data, { recursive: true, force: true });
  });

  it('W2 completes every timer workflow, never before its due time, and measures the store and memory it grew', async () => {
    const r = await runTimers({ client: t.engine.client, history, engine: { pid: process.pid, dataDirectory: data }, workflows: 20, minDelayMs: 1_000, maxDelayMs: 2_000, log });
    assert.equal(r.lateness.continuation.count, 20);
    assert.equal(r.lateness.fire.count, 20);
    assert.ok(r.lateness.fire.p50 >= 0, `a timer fired ${-r.lateness.fire.p50} ms early`);
    assert.ok(r.lateness.continuation.p50 >= r.lateness.fire.p50, 'the activity after a timer ran before the timer fired');
    assert.ok(r.lateness.continuation.max < 5_000, `a continuation ran ${r.lateness.continuation.max} ms late on an idle engine`);
    assert.ok(r.peakWaiting >= 1 && r.peakWaiting <= 20);
    assert.equal(r.atMeasurement.waiting + r.atMeasurement.notYetArmed + r.atMeasurement.fired, 20);
    assert.ok(r.store && r.store.bytesAtMeasurement > r.store.bytesBefore, 'the store did not grow with 20 workflows');
    assert.ok(r.engineMemory.atMeasurement.rssBytes > 0 && r.engineMemory.after.peakRssBytes >= r.engineMemory.after.rssBytes);
  });

  it('W3 delivers every signal to its workflow and measures each one from send to the workflow task that saw it', async () => {
    const r = await runSignals({ client: t.engine.client, history, workflows: 3, signalsPerWorkflow: 5, log });
    assert.equal(r.accepted, 15);
    assert.equal(r.observedLatencyMs.count, 15);
    assert.equal(r.ackLatencyMs.count, 15);
    assert.ok(r.signalsPerSecond > 0);
    assert.ok(r.observedLatencyMs.p50 >= 0, 'a signal was observed before it was sent');
    assert.ok(r.signalsPerDeliveringTask >= 1 && r.signalsPerDeliveringTask <= 5);
  });
});
