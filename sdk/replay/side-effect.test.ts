import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { sideEffectOf, SIDE_EFFECT_MARKER_NAME } from './side-effect-markers.js';
import { commandsOf, decode, nextTask } from './test-harness.js';
import { WorkflowRun, type WorkflowTaskResult } from './workflow-run.js';

const bundleOf = (version: 'v1' | 'v2') => bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL(`./test-workflows/side-effect-${version}.ts`, import.meta.url)) });

function completedWith(result: WorkflowTaskResult): unknown {
  const close = commandsOf(result).find((c): c is Extract<WorkflowCommand, { type: 'CompleteWorkflowExecution' }> => c.type === 'CompleteWorkflowExecution');
  assert.ok(close, 'the run completes');
  return decode(close.result);
}

/** The history of `recordedToken` recorded by v1 up to its last task (open), and the token it recorded. */
async function recordedByV1(): Promise<{ h: HistoryBuilder; token: unknown; cachedResult: unknown }> {
  const h = new HistoryBuilder({ workflowType: 'recordedToken' }).start();
  const run = WorkflowRun.create(await bundleOf('v1'), h.identity, { logger: () => undefined });
  const first = commandsOf(nextTask(run, h));
  assert.deepEqual(first.map((c) => c.type), ['RecordMarker', 'StartTimer']);
  const marker = first[0]!;
  assert.ok(marker.type === 'RecordMarker' && marker.markerName === SIDE_EFFECT_MARKER_NAME);
  const recorded = sideEffectOf(marker.markerName, marker.details);
  assert.equal(recorded?.seq, 1);
  h.completeTask(first).timerFired('1').scheduleTask();
  const cachedResult = completedWith(nextTask(run, h));
  run.dispose();
  return { h, token: decode(recorded!.value), cachedResult };
}

test('sideEffect records its value in a marker on first execution, and a full replay returns the recorded value', async () => {
  const { h, token, cachedResult } = await recordedByV1();
  assert.match(String(token), /^token-[0-9a-f-]{36}$/);
  assert.equal(cachedResult, token);
  const replay = WorkflowRun.create(await bundleOf('v1'), h.identity, { logger: () => undefined });
  assert.equal(completedWith(replay.activate(h.events)), token);
  replay.dispose();
});

test('on replay sideEffect returns the recorded value without calling its function, even after the function changed', async () => {
  const { h, token } = await recordedByV1();
  const replay = WorkflowRun.create(await bundleOf('v2'), h.identity, { logger: () => undefined });
  assert.equal(completedWith(replay.activate(h.events)), token);
  replay.dispose();
});

test('replaying code that asks for a side effect the history does not have fails the task with a DeterminismViolationError', async () => {
  const h = new HistoryBuilder({ workflowType: 'recordedToken' }).start();
  h.completeTask([{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1_000 }]).timerFired('1').scheduleTask();
  const run = WorkflowRun.create(await bundleOf('v1'), h.identity, { logger: () => undefined });
  const result = run.activate(h.events);
  run.dispose();
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.failure.code, 'DeterminismViolationError');
  assert.match(result.failure.message, /sideEffect #1 has no recorded value in history/);
});
