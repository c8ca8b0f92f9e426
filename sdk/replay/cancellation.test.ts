import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, payload } from './test-harness.js';
import { WorkflowRun, type QueryResult } from './workflow-run.js';

const CANCELLATION_WORKFLOWS = fileURLToPath(new URL('../../test/workflows/cancellation.ts', import.meta.url));
let bundle: Promise<WorkflowBundle> | undefined;
const cancellationBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: CANCELLATION_WORKFLOWS }));

/** The ScheduleActivityTask the workflows' default options produce. */
function schedule(activityId: string, activityType: string, ...args: unknown[]): WorkflowCommand {
  return {
    type: 'ScheduleActivityTask', activityId, activityType, taskQueue: null, header: {}, input: args.map(payload),
    scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 120_000, heartbeatTimeoutMs: null,
    retryPolicy: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: null, maximumAttempts: 5, nonRetryableErrorTypes: [] },
  };
}

/** Replays the whole history on a fresh run and returns the open task's commands. */
async function replay(h: HistoryBuilder): Promise<WorkflowCommand[]> {
  const run = WorkflowRun.create(await cancellationBundle(), h.identity, { logger: () => undefined });
  try {
    return commandsOf(run.activate(h.events));
  } finally {
    run.dispose();
  }
}

const complete = (value: string): WorkflowCommand => ({ type: 'CompleteWorkflowExecution', result: payload(value) });
const scheduledIdOf = (h: HistoryBuilder) => h.events.findLast((e) => e.attributes.type === 'ActivityTaskScheduled')!.eventId;
const ACTIVITY_CANCELLED = 'cancelled (ActivityFailure caused by CancelledFailure)';

/** A `cancelActivityOnSignal` run whose activity is scheduled and whose scope has just been cancelled. */
async function cancelledWith(type: string): Promise<HistoryBuilder> {
  const h = new HistoryBuilder({ workflowType: 'cancelActivityOnSignal' }).start('k', type);
  h.completeTask(await replay(h)).signal('cancelScope').scheduleTask();
  return h;
}

test('TRY_CANCEL requests the cancellation and rejects the call at once with an ActivityFailure caused by a CancelledFailure', async () => {
  const h = await cancelledWith('TRY_CANCEL');
  assert.deepEqual(await replay(h), [{ type: 'RequestCancelActivityTask', scheduledEventId: scheduledIdOf(h) }, complete(ACTIVITY_CANCELLED)]);
});

test('WAIT_CANCELLATION_COMPLETED requests the cancellation and settles the call only when ActivityTaskCanceled arrives', async () => {
  const h = await cancelledWith('WAIT_CANCELLATION_COMPLETED');
  const first = await replay(h);
  assert.deepEqual(first, [{ type: 'RequestCancelActivityTask', scheduledEventId: scheduledIdOf(h) }], 'the workflow still waits');
  h.completeTask(first).activityCanceled('1').scheduleTask();
  assert.deepEqual(await replay(h), [complete(ACTIVITY_CANCELLED)]);
});

test('WAIT_CANCELLATION_COMPLETED resolves with the result when the activity completes despite the request', async () => {
  const h = await cancelledWith('WAIT_CANCELLATION_COMPLETED');
  h.completeTask(await replay(h)).activityCompleted('1', 'finished anyway').scheduleTask();
  assert.deepEqual(await replay(h), [complete('completed: finished anyway')]);
});

test('ABANDON requests nothing and rejects the call at once', async () => {
  const h = await cancelledWith('ABANDON');
  assert.deepEqual(await replay(h), [complete(ACTIVITY_CANCELLED)]);
});

test('an activity cancelled in the activation that scheduled it is dropped, whatever the cancellation type', async () => {
  for (const type of ['TRY_CANCEL', 'WAIT_CANCELLATION_COMPLETED', 'ABANDON']) {
    const h = new HistoryBuilder({ workflowType: 'cancelActivityOnSignal' }).start('k', type).signal('cancelScope');
    assert.deepEqual(await replay(h), [complete(ACTIVITY_CANCELLED)], type);
  }
});

test('a cancelled run whose activity waits for cancellation cleans up in a non-cancellable scope, then ends Canceled', async () => {
  const h = new HistoryBuilder({ workflowType: 'cleansUpWhenCancelled' }).start('k');
  h.completeTask(await replay(h)).cancelRequested().scheduleTask();
  const requested = await replay(h);
  assert.deepEqual(requested, [{ type: 'RequestCancelActivityTask', scheduledEventId: scheduledIdOf(h) }]);
  h.completeTask(requested).activityCanceled('1').scheduleTask();
  const cleanup = await replay(h);
  assert.deepEqual(cleanup, [schedule('2', 'cleanup', 'k')], 'the cleanup activity is scheduled although the run is cancelled');
  h.completeTask(cleanup).activityCompleted('2', 'cleaned').scheduleTask();
  assert.deepEqual(await replay(h), [{ type: 'CancelWorkflowExecution', details: null }]);
});

test('a scope\'s timeout option behaves as withTimeout: a timer started first, the activity cancelled when it fires', async () => {
  for (const how of ['withTimeout', 'option']) {
    const h = new HistoryBuilder({ workflowType: 'activityWithin' }).start('k', '5s', how);
    const first = await replay(h);
    assert.deepEqual(first, [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 5_000 }, schedule('1', 'blockUntilCancelled', 'k')], how);
    h.completeTask(first).advance(5_000).timerFired('1').scheduleTask();
    assert.deepEqual(await replay(h), [{ type: 'RequestCancelActivityTask', scheduledEventId: scheduledIdOf(h) }, complete(ACTIVITY_CANCELLED)], how);
  }
});

test('a sleep in a cancelled scope cancels its timer (CancelTimer) and rejects with a CancelledFailure', async () => {
  const h = new HistoryBuilder({ workflowType: 'cancellableSleep' }).start();
  h.completeTask(await replay(h)).signal('cancelScope').scheduleTask();
  assert.deepEqual(await replay(h), [{ type: 'CancelTimer', timerId: '1' }, complete('cancelled (CancelledFailure)')]);
});

test('the built-in __stack_trace query lists what the run waits on, with no handler in workflow code', async () => {
  const h = new HistoryBuilder({ workflowType: 'activityWithin' }).start('k', '5s', 'withTimeout');
  const run = WorkflowRun.create(await cancellationBundle(), h.identity, { logger: () => undefined });
  h.completeTask(commandsOf(run.activate(h.events)));
  const result: QueryResult = run.query('__stack_trace', []);
  if (result.type !== 'answered') assert.fail(`query failed: ${result.failure.message}`);
  assert.equal(decode(result.result), [
    `workflow activityWithin (workflowId ${h.identity.workflowId}) waits on:`,
    '  activity blockUntilCancelled (activityId 1)',
    '  timer 1 (sleep, setTimeout or a scope timeout)',
  ].join('\n'));
  run.dispose();
});
