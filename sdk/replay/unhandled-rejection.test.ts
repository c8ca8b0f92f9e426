import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, fullReplay, scheduleActivity } from './test-harness.js';

test('an activity that fails before the workflow awaits it is not an unhandled rejection', async () => {
  const h = new HistoryBuilder({ workflowType: 'parallelActivities' }).start();
  h.completeTask([scheduleActivity('1', 'reserve', 'a'), scheduleActivity('2', 'charge', 'b')]);
  h.activityFailed('2', { message: 'declined' }).scheduleTask();
  assert.deepEqual(commandsOf(await fullReplay(h)), []);
  h.completeTask([]).activityCompleted('1', 'res').scheduleTask();
  const [command] = commandsOf(await fullReplay(h));
  assert.equal(command?.type === 'CompleteWorkflowExecution' ? decode(command.result) : command, 'res, then activity charge (id 2) failed: declined');
  // node:test fails this test if the host process saw an unhandled rejection; give it the chance.
  await new Promise((resolve) => setTimeout(resolve, 20));
});

test('a promise workflow code leaves rejected does not crash the worker process', async () => {
  const script = fileURLToPath(new URL('./test-workflows/run-leaky-workflow.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 30_000 });
  assert.equal(stdout.trim(), 'completed; worker alive');
});
