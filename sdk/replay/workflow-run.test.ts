import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { ApplicationFailure } from '../workflow/errors.js';
import { failureFromError } from './conversions.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, fullReplay, nextTask, payload, scheduleActivity, testBundle } from './test-harness.js';
import { EvictionRequiredError } from './errors.js';
import { WorkflowRun } from './workflow-run.js';

test('a three-activity workflow schedules one activity per task and completes with the last result; a full replay agrees at every step', async () => {
  const bundle = await testBundle();
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  const run = WorkflowRun.create(bundle, h.identity);
  const steps: Array<[activityId: string, result: string]> = [['1', 'res-1'], ['2', 'rcpt-1'], ['3', 'shipped']];
  const expected = [scheduleActivity('1', 'reserve', 'order-1'), scheduleActivity('2', 'charge', 'res-1'), scheduleActivity('3', 'ship', 'rcpt-1')];
  for (const [i, [activityId, result]] of steps.entries()) {
    const cached = nextTask(run, h);
    assert.deepEqual(commandsOf(cached), [expected[i]]);
    assert.deepEqual(await fullReplay(h), cached, 'a cache miss (full replay) returns what the cached run returned');
    h.completeTask(commandsOf(cached)).advance(1_000).activityCompleted(activityId, result).scheduleTask();
  }
  const last = nextTask(run, h);
  assert.deepEqual(commandsOf(last), [{ type: 'CompleteWorkflowExecution', result: payload('shipped') }]);
  assert.deepEqual(await fullReplay(h), last);
  run.dispose();
});

test('replaying a recorded history returns the recorded activity results instead of scheduling the activities again', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  h.completeTask([scheduleActivity('1', 'reserve', 'order-1')]).activityCompleted('1', 'recorded-reservation').scheduleTask();
  h.completeTask([scheduleActivity('2', 'charge', 'recorded-reservation')]).activityCompleted('2', 'recorded-receipt').scheduleTask();
  h.completeTask([scheduleActivity('3', 'ship', 'recorded-receipt')]).activityCompleted('3', 'recorded-shipment').scheduleTask();
  const commands = commandsOf(await fullReplay(h));
  // Nothing is scheduled: the three recorded results were fed back to the code, in order.
  assert.deepEqual(commands, [{ type: 'CompleteWorkflowExecution', result: payload('recorded-shipment') }]);
});

test('a workflow that throws an ApplicationFailure fails the run with its type, message and details', async () => {
  const h = new HistoryBuilder({ workflowType: 'declines' }).start();
  const [command, ...rest] = commandsOf(await fullReplay(h));
  assert.equal(rest.length, 0);
  assert.equal(command?.type, 'FailWorkflowExecution');
  if (command?.type !== 'FailWorkflowExecution') return;
  const { failure } = command;
  assert.equal(failure.message, 'card declined');
  assert.equal(failure.code, 'PaymentDeclined');
  assert.equal(failure.nonRetryable, true);
  assert.deepEqual(decode(failure.details), [{ orderId: 7 }]);
  assert.match(failure.stackTrace, /declines/);
});

test('a workflow that throws a TypeError fails the workflow task, not the run', async () => {
  const h = new HistoryBuilder({ workflowType: 'hasABug' }).start();
  const result = await fullReplay(h);
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'WorkflowCodeError');
  assert.equal(result.taskFailedCause, 'WorkflowWorkerUnhandledFailure');
  assert.equal(result.failure.code, 'TypeError');
  assert.match(result.failure.message, /total/);
});

test('an activity failure reaches the workflow as an ActivityFailure whose cause is the recorded ApplicationFailure', async () => {
  const h = new HistoryBuilder({ workflowType: 'catchesActivityFailure' }).start();
  h.completeTask([scheduleActivity('1', 'charge', 'r-1')]);
  h.activityFailed('1', { message: 'card declined', code: 'PaymentDeclined', nonRetryable: true, details: payload(['visa']) }).scheduleTask();
  const [command] = commandsOf(await fullReplay(h));
  assert.equal(command?.type, 'CompleteWorkflowExecution');
  if (command?.type !== 'CompleteWorkflowExecution') return;
  assert.deepEqual(decode(command.result), {
    caught: true, activityType: 'charge', causeType: 'PaymentDeclined', causeMessage: 'card declined', details: ['visa'],
  });
});

test('a cancel request cancels the pending timer, runs non-cancellable compensation and then cancels the run', async () => {
  const h = new HistoryBuilder({ workflowType: 'cancellable' }).start('o-9');
  const run = WorkflowRun.create(await testBundle(), h.identity);
  h.completeTask(commandsOf(nextTask(run, h))).activityCompleted('1', 'res').scheduleTask();
  assert.deepEqual(commandsOf(nextTask(run, h)), [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 86_400_000 }]);
  h.completeTask([{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 86_400_000 }]).cancelRequested().scheduleTask();
  const onCancel = commandsOf(nextTask(run, h));
  assert.deepEqual(onCancel, [{ type: 'CancelTimer', timerId: '1' }, scheduleActivity('2', 'charge', 'refund')]);
  h.completeTask(onCancel).activityCompleted('2', 'refunded').scheduleTask();
  assert.deepEqual(commandsOf(nextTask(run, h)), [{ type: 'CancelWorkflowExecution', details: null }]);
  assert.deepEqual(await fullReplay(h), { type: 'completed', commands: [{ type: 'CancelWorkflowExecution', details: null }] });
  run.dispose();
});

test('workflowInfo describes the run (memo decoded) and upsertSearchAttributes issues its command, whose attributes workflowInfo then shows', async () => {
  const h = new HistoryBuilder({ workflowType: 'info', workflowId: 'info-7', attempt: 2, memo: { customer: 'c-1', tags: ['eu'] } }).start();
  const [upsert, complete] = commandsOf(await fullReplay(h));
  assert.deepEqual(upsert, { type: 'UpsertWorkflowSearchAttributes', searchAttributes: { CustomerTier: { type: 'Keyword', value: 'gold' } } });
  assert.equal(complete?.type, 'CompleteWorkflowExecution');
  if (complete?.type !== 'CompleteWorkflowExecution') return;
  assert.deepEqual(decode(complete.result), {
    workflowId: 'info-7', runId: h.identity.runId, workflowType: 'info', taskQueue: 'test', namespace: 'default', attempt: 2,
    startTime: new Date(h.events[0]!.eventTime).toISOString(), firstExecutionRunId: h.identity.runId,
    historyLength: 3, historySize: 0, continueAsNewSuggested: false, memo: { customer: 'c-1', tags: ['eu'] },
    // The run's own upsert shows at once, untyped and typed.
    searchAttributes: { CustomerTier: ['gold'] }, typedSearchAttributes: [{ key: { name: 'CustomerTier', type: 'KEYWORD' }, value: 'gold' }],
  });
});

test('an unknown workflow type fails the task with UnknownWorkflowType naming the exported types', async () => {
  const result = await fullReplay(new HistoryBuilder({ workflowType: 'nope' }).start());
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'UnknownWorkflowType');
  assert.match(result.failure.message, /nope is not exported .*sequential/);
});

test('events of a task that failed are delivered again to the next attempt', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  h.completeTask([scheduleActivity('1', 'reserve', 'order-1')]).activityCompleted('1', 'res-1').scheduleTask();
  h.failTask().advance(5_000).scheduleTask(2);
  assert.deepEqual(commandsOf(await fullReplay(h)), [scheduleActivity('2', 'charge', 'res-1')]);
});

test('a cached run whose completed task the engine failed asks to be evicted instead of continuing', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  const run = WorkflowRun.create(await testBundle(), h.identity);
  commandsOf(nextTask(run, h));
  h.failTask('UnhandledCommand').scheduleTask(2);
  assert.throws(() => nextTask(run, h), EvictionRequiredError);
  assert.throws(() => run.activate([]), EvictionRequiredError, 'and stays unusable');
  run.dispose();
});

test('events that do not continue the cached run are refused', async () => {
  const h = new HistoryBuilder({ workflowType: 'sequential' }).start('order-1');
  const run = WorkflowRun.create(await testBundle(), h.identity);
  assert.throws(() => run.activate(h.events.slice(1)), /continue run .* from event 1, got event 2/);
  run.dispose();
});

test('CancellationScope.withTimeout cancels the activity when its timer fires first (RequestCancelActivityTask names the scheduled event)', async () => {
  const h = new HistoryBuilder({ workflowType: 'reserveWithin' }).start('1m');
  const first = commandsOf(await fullReplay(h));
  assert.deepEqual(first, [{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 60_000 }, scheduleActivity('1', 'reserve', 'x')]);
  h.completeTask(first).advance(60_000).timerFired('1').scheduleTask();
  const scheduledEventId = h.events.find((e) => e.attributes.type === 'ActivityTaskScheduled')!.eventId;
  assert.deepEqual(commandsOf(await fullReplay(h)), [
    { type: 'RequestCancelActivityTask', scheduledEventId },
    { type: 'CompleteWorkflowExecution', result: payload('timed out') },
  ]);
});

test('CancellationScope.withTimeout cancels its timer when the activity finishes first', async () => {
  const h = new HistoryBuilder({ workflowType: 'reserveWithin' }).start('1m');
  h.completeTask(commandsOf(await fullReplay(h))).activityCompleted('1', 'reserved').scheduleTask();
  assert.deepEqual(commandsOf(await fullReplay(h)), [
    { type: 'CancelTimer', timerId: '1' },
    { type: 'CompleteWorkflowExecution', result: payload('reserved') },
  ]);
});

test('an activity worker describes an ApplicationFailure the way workflow code reads it back', async () => {
  const failure = failureFromError(ApplicationFailure.nonRetryable('card declined', 'PaymentDeclined', 'visa'), defaultDataConverter);
  const h = new HistoryBuilder({ workflowType: 'catchesActivityFailure' }).start();
  h.completeTask([scheduleActivity('1', 'charge', 'r-1')]).activityFailed('1', failure).scheduleTask();
  const [command] = commandsOf(await fullReplay(h));
  assert.deepEqual(command?.type === 'CompleteWorkflowExecution' ? decode(command.result) : command, {
    caught: true, activityType: 'charge', causeType: 'PaymentDeclined', causeMessage: 'card declined', details: ['visa'],
  });
});

test('a redelivered task (no new events) returns the same commands without running the code again', async () => {
  const h = new HistoryBuilder({ workflowType: 'nondeterministicApis' }).start();
  const run = WorkflowRun.create(await testBundle(), h.identity);
  const first = nextTask(run, h);
  assert.deepEqual(run.activate([]), first);
  h.completeTask(commandsOf(first)).advance(1_000).timerFired('1').scheduleTask();
  assert.equal(commandsOf(nextTask(run, h))[0]?.type, 'CompleteWorkflowExecution', 'and the run continues normally');
  run.dispose();
});
