import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, fullReplay, nextTask, testBundle } from './test-harness.js';
import { WorkflowRun, type WorkflowTaskResult } from './workflow-run.js';

function resultOf(result: WorkflowTaskResult): unknown {
  const [command] = commandsOf(result);
  assert.equal(command?.type, 'CompleteWorkflowExecution');
  return command?.type === 'CompleteWorkflowExecution' ? decode(command.result) : undefined;
}

/** Runs `nondeterministicApis` live on a cached run, recording its history. */
async function recordNondeterministicApis(prngSeed: number): Promise<{ h: HistoryBuilder; live: WorkflowTaskResult }> {
  const h = new HistoryBuilder({ workflowType: 'nondeterministicApis', prngSeed }).start();
  const run = WorkflowRun.create(await testBundle(), h.identity);
  const first = commandsOf(nextTask(run, h));
  assert.deepEqual(first, [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1_000 }]);
  h.completeTask(first).advance(1_500).timerFired('1').advance(20).scheduleTask();
  const live = nextTask(run, h);
  run.dispose();
  return { h, live };
}

test('Date, Math.random and uuid4 give the same values live and on replay, and Date is the workflow task time', async () => {
  const { h, live } = await recordNondeterministicApis(1234);
  const value = resultOf(live) as { before: Record<string, unknown>; afterNow: number; afterRandom: number; weakRef: string };
  const firstTaskTime = h.events[1]!.eventTime;
  const secondTaskTime = h.events.at(-1)!.eventTime;
  assert.equal(value.before.now, firstTaskTime);
  assert.equal(value.before.iso, new Date(firstTaskTime).toISOString());
  assert.equal(value.before.dateCall, new Date(firstTaskTime).toString());
  assert.equal(value.afterNow, secondTaskTime);
  assert.ok(typeof value.before.random === 'number' && value.before.random >= 0 && value.before.random < 1);
  assert.match(String(value.before.uuid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(value.weakRef, 'undefined', 'WeakRef is removed (garbage-collection timing is not deterministic)');
  assert.deepEqual(await fullReplay(h), live, 'a full replay produces byte-identical commands');
  const other = await recordNondeterministicApis(99);
  assert.notEqual((resultOf(other.live) as typeof value).before.random, value.before.random, 'another seed, other numbers');
});

test('setTimeout is a durable timer', async () => {
  const h = new HistoryBuilder({ workflowType: 'usesSetTimeout' }).start();
  const first = commandsOf(await fullReplay(h));
  assert.deepEqual(first, [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 5_000 }]);
  h.completeTask(first).advance(5_000).timerFired('1').scheduleTask();
  assert.equal(resultOf(await fullReplay(h)), 'woke up');
});

test('setInterval fails the workflow task with a DeterminismViolationError naming it, even when the code catches it', async () => {
  const result = await fullReplay(new HistoryBuilder({ workflowType: 'usesSetInterval' }).start());
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'WorkflowCodeError');
  assert.equal(result.failure.code, 'DeterminismViolationError');
  assert.match(result.failure.message, /setInterval is not available in workflow code.*sleep\(\)/);
});

test('a busy-looping workflow fails its task with Deadlock naming the workflow, after the deadlock timeout', async () => {
  const h = new HistoryBuilder({ workflowType: 'busyLoop', workflowId: 'spinner-1' }).start();
  const started = performance.now();
  const result = await fullReplay(h, { deadlockTimeoutMs: 100 });
  const elapsed = performance.now() - started;
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'Deadlock');
  assert.equal(result.failure.code, 'DeadlockError');
  assert.match(result.failure.message, /workflow busyLoop \(workflowId spinner-1, runId [0-9a-f-]+\) did not yield within 100 ms/);
  assert.ok(elapsed >= 95 && elapsed < 2_000, `interrupted after ${elapsed} ms`);
});
