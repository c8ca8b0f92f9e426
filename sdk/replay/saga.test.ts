import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, nextTask, scheduleActivity } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

let bundle: Promise<WorkflowBundle> | undefined;
const sagaBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./test-workflows/saga.ts', import.meta.url)) }));
const replayed = async (h: HistoryBuilder): Promise<WorkflowCommand[]> => {
  const run = WorkflowRun.create(await sagaBundle(), h.identity, { logger: () => undefined });
  try {
    return commandsOf(run.activate(h.events));
  } finally {
    run.dispose();
  }
};
const declined = { message: 'card declined', code: 'PaymentDeclined', nonRetryable: true };
const requiresIntervention: WorkflowCommand = { type: 'UpsertWorkflowSearchAttributes', searchAttributes: { RequiresIntervention: { type: 'Bool', value: true } } };

/** Runs sagaTrip until payment fails; returns the history, the cached run and the first compensation commands. */
async function paymentDeclined(parallel: boolean) {
  const h = new HistoryBuilder({ workflowType: 'sagaTrip' }).start(parallel);
  const run = WorkflowRun.create(await sagaBundle(), h.identity, { logger: () => undefined });
  for (const [id, step] of [['1', 'hotel'], ['2', 'flight'], ['3', 'payment']] as const) {
    const commands = commandsOf(nextTask(run, h));
    assert.deepEqual(commands, [scheduleActivity(id, 'book', step)]);
    h.completeTask(commands);
    if (step === 'payment') h.activityFailed(id, declined);
    else h.activityCompleted(id, `${step}-ok`);
    h.scheduleTask();
  }
  return { h, run, compensations: commandsOf(nextTask(run, h)) };
}

test('Saga.compensate runs compensations in reverse, continues past a failed one, reports both and tags the run RequiresIntervention', async () => {
  const { h, run, compensations } = await paymentDeclined(false);
  assert.deepEqual(compensations, [scheduleActivity('4', 'cancel', 'flight')]);
  h.completeTask(compensations).activityFailed('4', { message: 'airline unreachable', nonRetryable: true }).scheduleTask();
  const next = commandsOf(nextTask(run, h));
  assert.deepEqual(next, [scheduleActivity('5', 'cancel', 'hotel')], 'the hotel is still cancelled after the flight cancellation failed');
  h.completeTask(next).activityCompleted('5', 'hotel-cancelled').scheduleTask();
  const [upsert, complete] = commandsOf(nextTask(run, h));
  run.dispose();
  assert.deepEqual(upsert, requiresIntervention);
  assert.ok(complete?.type === 'CompleteWorkflowExecution');
  assert.deepEqual(decode(complete.result), { booked: false, report: { compensated: ['cancelHotel'], failed: [{ name: 'cancelFlight', error: 'airline unreachable' }] } });
  assert.deepEqual(await replayed(h), [upsert, complete], 'a full replay of the recorded history issues the same commands');
});

test('Saga.compensate with no failed compensation does not tag the run', async () => {
  const { h, run, compensations } = await paymentDeclined(false);
  h.completeTask(compensations).activityCompleted('4').scheduleTask();
  h.completeTask(commandsOf(nextTask(run, h))).activityCompleted('5').scheduleTask();
  const commands = commandsOf(nextTask(run, h));
  run.dispose();
  assert.deepEqual(commands.map((c) => c.type), ['CompleteWorkflowExecution']);
  assert.ok(commands[0]?.type === 'CompleteWorkflowExecution');
  assert.deepEqual(decode(commands[0].result), { booked: false, report: { compensated: ['cancelFlight', 'cancelHotel'], failed: [] } });
});

test('Saga with parallelCompensation schedules every compensation in one workflow task, newest first', async () => {
  const { h, run, compensations } = await paymentDeclined(true);
  assert.deepEqual(compensations, [scheduleActivity('4', 'cancel', 'flight'), scheduleActivity('5', 'cancel', 'hotel')]);
  h.completeTask(compensations).activityCompleted('5').activityFailed('4', { message: 'airline unreachable' }).scheduleTask();
  const [upsert, complete] = commandsOf(nextTask(run, h));
  run.dispose();
  assert.deepEqual(upsert, requiresIntervention);
  assert.ok(complete?.type === 'CompleteWorkflowExecution');
  assert.deepEqual(decode(complete.result), { booked: false, report: { compensated: ['cancelHotel'], failed: [{ name: 'cancelFlight', error: 'airline unreachable' }] } });
});

test('a cancelled workflow still runs its saga compensations (non-cancellable scope), then ends cancelled', async () => {
  const h = new HistoryBuilder({ workflowType: 'sagaCancelled' }).start();
  const run = WorkflowRun.create(await sagaBundle(), h.identity, { logger: () => undefined });
  h.completeTask(commandsOf(nextTask(run, h))).activityCompleted('1', 'hotel-ok').scheduleTask();
  const timer = commandsOf(nextTask(run, h));
  assert.deepEqual(timer, [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 86_400_000 }]);
  h.completeTask(timer).cancelRequested().scheduleTask();
  const onCancel = commandsOf(nextTask(run, h));
  assert.deepEqual(onCancel, [{ type: 'CancelTimer', timerId: '1' }, scheduleActivity('2', 'cancel', 'hotel')]);
  h.completeTask(onCancel).activityCompleted('2').scheduleTask();
  assert.deepEqual(commandsOf(nextTask(run, h)), [{ type: 'CancelWorkflowExecution', details: null }]);
  run.dispose();
});

test('Saga.compensate runs each compensation once, and addCompensation after it throws', async () => {
  const h = new HistoryBuilder({ workflowType: 'sagaCompensatesOnce' }).start();
  const run = WorkflowRun.create(await sagaBundle(), h.identity, { logger: () => undefined });
  const first = commandsOf(nextTask(run, h));
  assert.deepEqual(first, [scheduleActivity('1', 'cancel', 'hotel')]);
  h.completeTask(first).activityCompleted('1').scheduleTask();
  const [complete, ...rest] = commandsOf(nextTask(run, h));
  run.dispose();
  assert.deepEqual(rest, []);
  assert.ok(complete?.type === 'CompleteWorkflowExecution');
  assert.deepEqual(decode(complete.result), {
    first: { compensated: ['cancelHotel'], failed: [] },
    second: { compensated: [], failed: [] },
    refused: "Saga: cannot add compensation 'cancelLate' after compensate() started",
  });
});
