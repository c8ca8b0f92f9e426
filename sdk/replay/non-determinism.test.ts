import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { bundleWorkflowCode } from '../workflow/bundle.js';
import { NonDeterminismError } from './errors.js';
import { HistoryBuilder } from './history-builder.js';
import { replayHistory } from './replay-history.js';
import { scheduleActivity, testBundle } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const reorderedPath = fileURLToPath(new URL('./test-workflows/reordered-workflows.ts', import.meta.url));

/** The complete history of `sequential('order-1')` as the original code records it. */
function recordedSequential(): HistoryBuilder {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  h.completeTask([scheduleActivity('1', 'reserve', 'order-1')]).activityCompleted('1', 'res-1').scheduleTask();
  h.completeTask([scheduleActivity('2', 'charge', 'res-1')]).activityCompleted('2', 'rcpt-1').scheduleTask();
  h.completeTask([scheduleActivity('3', 'ship', 'rcpt-1')]).activityCompleted('3', 'shipped').scheduleTask();
  return h;
}

test('the replayer accepts a recorded history replayed with the code that recorded it', async () => {
  const h = recordedSequential();
  h.completeTask([{ type: 'CompleteWorkflowExecution', result: null }]);
  // The recorded result is not compared, only the kind of closing command.
  assert.deepEqual(replayHistory(await testBundle(), h.events), { ok: true });
});

test('reordered activities raise a NonDeterminismError naming the event, the recorded event and the produced command', async () => {
  const reordered = await bundleWorkflowCode({ workflowsPath: reorderedPath });
  const result = replayHistory(reordered, recordedSequential().events);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.ok(result.error instanceof NonDeterminismError);
  assert.equal(result.error.code, 'NON_DETERMINISM');
  assert.deepEqual(
    { ...result.error.details },
    {
      workflowType: 'sequential', workflowId: 'sequential-1', runId: '00000000-0000-4000-8000-000000000001', eventId: 5,
      expected: 'ActivityTaskScheduled(activityType=reserve, activityId=1)',
      found: 'ScheduleActivityTask(activityType=charge, activityId=1)',
    },
  );
  assert.equal(
    result.error.message,
    'non-determinism in workflow sequential (workflowId sequential-1) at event 5: history recorded ' +
      'ActivityTaskScheduled(activityType=reserve, activityId=1) but the workflow code produced ' +
      'ScheduleActivityTask(activityType=charge, activityId=1)',
  );
});

test('a worker with changed code fails the workflow task with NonDeterminism instead of taking another path', async () => {
  const reordered = await bundleWorkflowCode({ workflowsPath: reorderedPath });
  const h = recordedSequential();
  const run = WorkflowRun.create(reordered, h.identity);
  const result = run.activate(h.events);
  run.dispose();
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'NonDeterminism');
  assert.equal(result.taskFailedCause, 'NonDeterministicError');
  assert.equal(result.failure.code, 'NonDeterminismError');
  assert.match(result.failure.message, /at event 5: history recorded ActivityTaskScheduled\(activityType=reserve/);
});

test('a command the history does not have is reported at the position it would have taken', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  h.completeTask([]); // a recorded task that issued nothing
  h.scheduleTask();
  const result = replayHistory(await testBundle(), h.events);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(
    result.error.message,
    /at event 5: history recorded WorkflowTaskScheduled but the workflow code produced ScheduleActivityTask\(activityType=reserve, activityId=1\) \(the code produced more commands than were recorded\)/,
  );
});

test('a recorded command the code no longer produces is reported at its event', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  h.completeTask([scheduleActivity('1', 'reserve', 'order-1'), { type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1000 }]);
  const result = replayHistory(await testBundle(), h.events);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.error.message, /at event 6: history recorded TimerStarted\(timerId=1\) but the workflow code produced no further command/);
});

test('a changed closing command is detected (completed in history, failed by the code)', async () => {
  const h = new HistoryBuilder({ workflowType: 'declines' }).start();
  h.completeTask([{ type: 'CompleteWorkflowExecution', result: null }]);
  const result = replayHistory(await testBundle(), h.events);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.error.message, /at event 5: history recorded WorkflowExecutionCompleted but the workflow code produced FailWorkflowExecution/);
});
