import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, fullReplay, nextTask, payload, testBundle } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const sleepOneMinute: WorkflowCommand = { type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 60_000 };
const waitOneHour: WorkflowCommand = { type: 'StartTimer', timerId: '2', startToFireTimeoutMs: 3_600_000 };
const complete = (result: string): WorkflowCommand => ({ type: 'CompleteWorkflowExecution', result: payload(result) });

/** Drives `approval` task by task on a cached run, checking a full replay agrees each time. */
async function drive(steps: Array<(h: HistoryBuilder) => void>, expected: WorkflowCommand[][]): Promise<void> {
  const h = new HistoryBuilder({ workflowType: 'approval' }).start();
  const run = WorkflowRun.create(await testBundle(), h.identity);
  for (const [i, commands] of expected.entries()) {
    const result = nextTask(run, h);
    assert.deepEqual(commandsOf(result), commands, `task ${i + 1}`);
    assert.deepEqual(await fullReplay(h), result, `full replay of task ${i + 1}`);
    h.completeTask(commands);
    steps[i]?.(h);
  }
  run.dispose();
}

test('sleep is StartTimer and resumes on TimerFired; a signal sent before its handler is set is buffered until then', async () => {
  await drive(
    [
      (h) => h.advance(10_000).signal('approve', 'alice').scheduleTask(),
      (h) => h.advance(50_000).timerFired('1').scheduleTask(),
    ],
    [[sleepOneMinute], [], [complete('approved by alice')]],
  );
});

test('condition with a timeout resolves false when its timer fires first', async () => {
  await drive(
    [
      (h) => h.advance(60_000).timerFired('1').scheduleTask(),
      (h) => h.advance(3_600_000).timerFired('2').scheduleTask(),
    ],
    [[sleepOneMinute], [waitOneHour], [complete('timed out')]],
  );
});

test('condition with a timeout resolves true when a signal satisfies it, and cancels its timer', async () => {
  await drive(
    [
      (h) => h.advance(60_000).timerFired('1').scheduleTask(),
      (h) => h.advance(1_000).signal('approve', 'bob').scheduleTask(),
    ],
    [[sleepOneMinute], [waitOneHour], [{ type: 'CancelTimer', timerId: '2' }, complete('approved by bob')]],
  );
});

test('a signal and a timer delivered in the same task are both applied', async () => {
  await drive(
    [(h) => h.advance(60_000).timerFired('1').signal('approve', 'carol').scheduleTask()],
    [[sleepOneMinute], [complete('approved by carol')]],
  );
});
