/**
 * Measures what the replay engine costs: bundling, creating a run's sandbox, a cached activation,
 * and a full replay of a long history.
 *
 *   node --import tsx sdk/replay/bench-activation.ts
 * @module
 */
import { WorkflowSandbox, sharedAsyncLocalStorage } from '../workflow/sandbox.js';
import { bundleWorkflowCode } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, nextTask, testWorkflowsPath } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const ms = (start: number) => performance.now() - start;
const fmt = (value: number) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`);

let start = performance.now();
const bundle = await bundleWorkflowCode({ workflowsPath: testWorkflowsPath });
console.log(`bundleWorkflowCode: ${fmt(ms(start))} (${(bundle.code.length / 1024).toFixed(0)} KiB)`);

const info = { namespace: 'n', workflowId: 'w', runId: 'r', workflowType: 'sequential', taskQueue: 'q', attempt: 1, startTimeMs: 0, firstExecutionRunId: 'r', continuedFromExecutionRunId: null, memo: {} };
const bridge = { info, prngSeed: 1, encode: (v: unknown) => v, log: () => undefined, asyncLocalStorage: sharedAsyncLocalStorage };
const contexts = 200;
const heapBefore = process.memoryUsage().heapUsed;
start = performance.now();
const sandboxes = Array.from({ length: contexts }, () => WorkflowSandbox.create(bundle, bridge, { deadlockTimeoutMs: 1_000 }));
console.log(`sandbox (vm context + bundle evaluation): ${fmt(ms(start) / contexts)} each, ~${((process.memoryUsage().heapUsed - heapBefore) / contexts / 1024).toFixed(0)} KiB heap each`);
for (const s of sandboxes) s.dispose();

// Cached run: one activation per workflow task of the 3-activity workflow.
const rounds = 300;
let activations = 0;
let activationMs = 0;
let firstTaskMs = 0;
for (let i = 0; i < rounds; i++) {
  const h = new HistoryBuilder({ workflowType: 'sequential', workflowId: `seq-${i}` }).start('order');
  const run = WorkflowRun.create(bundle, h.identity);
  start = performance.now();
  let commands = commandsOf(nextTask(run, h));
  firstTaskMs += ms(start);
  for (const id of ['1', '2', '3']) {
    h.completeTask(commands).activityCompleted(id, `result-${id}`).scheduleTask();
    start = performance.now();
    commands = commandsOf(nextTask(run, h));
    activationMs += ms(start);
    activations++;
  }
  run.dispose();
}
console.log(`first workflow task of a run (sandbox + start): ${fmt(firstTaskMs / rounds)}`);
console.log(`cached activation (apply new events, run code, match last commands): ${fmt(activationMs / activations)}`);

// Full replay (cache miss) of a run that completed `steps` activities.
const steps = 100;
const h = new HistoryBuilder({ workflowType: 'manySteps' }).start(steps);
const recorder = WorkflowRun.create(bundle, h.identity);
for (let i = 1; i <= steps; i++) {
  h.completeTask(commandsOf(nextTask(recorder, h))).activityCompleted(String(i), 'ok').scheduleTask();
}
recorder.dispose();
const replays = 20;
start = performance.now();
for (let i = 0; i < replays; i++) {
  const run = WorkflowRun.create(bundle, h.identity);
  commandsOf(run.activate(h.events));
  run.dispose();
}
const replayMs = ms(start) / replays;
console.log(`full replay of ${h.events.length} events (${steps + 1} workflow tasks): ${fmt(replayMs)} (${fmt(replayMs / (steps + 1))} per task)`);
