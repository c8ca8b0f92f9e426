import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { HistoryBuilder } from './history-builder.js';
import { NonDeterminismError } from './errors.js';
import { replayHistory } from './replay-history.js';
import { commandsOf, decode, fullReplay, nextTask, payload, testBundle } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';

const timer = (id: string): WorkflowCommand => ({ type: 'StartTimer', timerId: id, startToFireTimeoutMs: 1000 });

const continueAsNew = (workflowType: string, args: unknown[], overrides: Partial<Extract<WorkflowCommand, { type: 'ContinueAsNewWorkflowExecution' }>> = {}): WorkflowCommand => ({
  type: 'ContinueAsNewWorkflowExecution', workflowType, taskQueue: null, input: args.map(payload), workflowRunTimeoutMs: null,
  workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null, ...overrides,
});

/** A poller history: task 1 starts timer 1; task 2 is told (or not) to continue as new. */
function pollerHistory(suggestAtTask2: boolean): HistoryBuilder {
  return new HistoryBuilder({ workflowType: 'poller' }).start(0, 3).startTask().completeTask([timer('1')])
    .advance(1000).timerFired('1').scheduleTask().startTask({ suggestContinueAsNew: suggestAtTask2, historySizeBytes: 900 });
}

test('continueAsNew ends the run with ContinueAsNewWorkflowExecution when the task suggests it, carrying the encoded arguments', async () => {
  const h = new HistoryBuilder({ workflowType: 'poller' }).start(0, 3).startTask();
  const run = WorkflowRun.create(await testBundle(), h.identity, { logger: () => undefined });
  assert.deepEqual(commandsOf(nextTask(run, h)), [timer('1')]);
  h.completeTask([timer('1')]).advance(1000).timerFired('1').scheduleTask().startTask({ suggestContinueAsNew: true });
  const handOver = commandsOf(nextTask(run, h));
  assert.deepEqual(handOver, [continueAsNew('poller', [1, 3])]);
  h.completeTask(handOver);
  assert.equal(h.events.at(-1)!.attributes.type, 'WorkflowExecutionContinuedAsNew');
  assert.deepEqual(replayHistory(await testBundle(), h.events), { ok: true });
  run.dispose();
});

test('the suggestion comes from the recorded WorkflowTaskStarted, so replay repeats the decision and a different record is a non-determinism', async () => {
  const suggested = pollerHistory(true);
  suggested.completeTask([continueAsNew('poller', [1, 3])]);
  assert.deepEqual(replayHistory(await testBundle(), suggested.events), { ok: true });

  const notSuggested = pollerHistory(false);
  assert.deepEqual(commandsOf(await fullReplay(notSuggested)), [timer('2')], 'without the suggestion the poller goes on');
  notSuggested.completeTask([continueAsNew('poller', [1, 3])]);
  const replay = replayHistory(await testBundle(), notSuggested.events);
  assert.equal(replay.ok, false);
  assert.ok(!replay.ok && replay.error instanceof NonDeterminismError);
});

test('makeContinueAsNewFunc overrides type, queue and timeouts; code after the call never runs, its finally does', async () => {
  const h = new HistoryBuilder({ workflowType: 'handsOver' }).start();
  assert.deepEqual(commandsOf(await fullReplay(h)), [
    { type: 'UpsertWorkflowSearchAttributes', searchAttributes: { HandedOver: { type: 'Bool', value: true } } },
    continueAsNew('poller', [7, 9], { taskQueue: 'pollers', workflowTaskTimeoutMs: 5000 }),
  ]);
});

test('workflowInfo of a continued run names its chain and reads the history facts of the current task', async () => {
  const h = new HistoryBuilder({
    workflowType: 'poller', runId: '00000000-0000-4000-8000-000000000002',
    continuedFrom: { runId: '00000000-0000-4000-8000-000000000001', firstExecutionRunId: '00000000-0000-4000-8000-000000000000' },
  }).start(3, 3).startTask({ historySizeBytes: 321 });
  const [complete] = commandsOf(await fullReplay(h));
  assert.ok(complete?.type === 'CompleteWorkflowExecution');
  assert.deepEqual(decode(complete.result), {
    count: 3, runId: '00000000-0000-4000-8000-000000000002', firstExecutionRunId: '00000000-0000-4000-8000-000000000000',
    continuedFrom: '00000000-0000-4000-8000-000000000001', historyLength: 3,
  });
});

test('the engine\'s history-limit warning marker is skipped by replay, on a cache hit and on a full replay', async () => {
  const h = new HistoryBuilder({ workflowType: 'poller' }).start(0, 3).startTask();
  const run = WorkflowRun.create(await testBundle(), h.identity, { logger: () => undefined });
  assert.deepEqual(commandsOf(nextTask(run, h)), [timer('1')]);
  h.completeTask([timer('1')]).historyWarning().advance(1000).timerFired('1').scheduleTask();
  assert.deepEqual(commandsOf(nextTask(run, h)), [timer('2')]);
  assert.deepEqual(commandsOf(await fullReplay(h)), [timer('2')]);
  run.dispose();
});
