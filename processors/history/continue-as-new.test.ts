import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import { continuedRunIdOf } from './deterministic-seed.js';
import { HistoryDriver, json, scheduleActivity, T0 } from './test-kit.js';
import type { WorkflowTaskIntent } from './transition.js';

const continueAsNew = (overrides: Partial<Omit<Extract<WorkflowCommand, { type: 'ContinueAsNewWorkflowExecution' }>, 'type'>> = {}): WorkflowCommand => ({
  type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [json({ cursor: 100 })],
  workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {},
  memo: null, searchAttributes: null, ...overrides,
});

const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

describe('continue-as-new', () => {
  it('closes the run with WorkflowExecutionContinuedAsNew and starts the next run of the same workflow id in the same transition, with a fresh history and the carried input', () => {
    const d = new HistoryDriver();
    d.start({ workflowExecutionTimeoutMs: 3_600_000 });
    d.completeWorkflowTask([scheduleActivity('a1'), { type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: 60_000 }]);
    d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw' });
    d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'aw', result: json('ok') });
    d.now += 1000;
    const transition = d.completeWorkflowTask([continueAsNew({ taskQueue: 'orders-v2', workflowTaskTimeoutMs: 5000 })]);

    const newRunId = continuedRunIdOf('run-1', 12);
    assert.match(newRunId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(d.types('run-1').slice(-4), ['WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionContinuedAsNew']);
    const closing = d.events.find((e) => e.attributes.type === 'WorkflowExecutionContinuedAsNew')!;
    assert.equal(closing.eventId, 12);
    assert.equal(closing.runId, 'run-1');
    assert.deepEqual(closing.attributes, {
      type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: newRunId, workflowType: 'order', taskQueue: 'orders-v2',
      input: [json({ cursor: 100 })], workflowRunTimeoutMs: 3_600_000, workflowTaskTimeoutMs: 5000, workflowTaskCompletedEventId: 11,
      backoffStartIntervalMs: null, initiator: 'Workflow', failure: null, lastCompletionResult: null, header: {}, memo: {}, searchAttributes: {},
    });

    assert.deepEqual(transition.events.filter((e) => e.runId === newRunId).map((e) => [e.eventId, e.attributes.type]), [
      [1, 'WorkflowExecutionStarted'], [2, 'WorkflowTaskScheduled'],
    ]);
    const started = transition.events.find((e) => e.runId === newRunId)!;
    assert.equal(started.taskQueue, 'orders-v2');
    assert.ok(started.attributes.type === 'WorkflowExecutionStarted');
    assert.equal(started.attributes.continuedExecutionRunId, 'run-1');
    assert.equal(started.attributes.initiator, 'Workflow');
    assert.equal(started.attributes.firstExecutionRunId, 'run-1');
    assert.equal(started.attributes.originalExecutionRunId, newRunId);
    assert.equal(started.attributes.workflowTaskTimeoutMs, 5000);
    assert.deepEqual(started.attributes.input, [json({ cursor: 100 })]);
    assert.equal(started.attributes.workflowExecutionExpirationTime, T0 + 3_600_000, 'the chain keeps the first run\'s execution deadline');

    assert.equal(transition.closedRun!.visibility.runId, 'run-1');
    assert.equal(transition.closedRun!.visibility.status, 'ContinuedAsNew');
    assert.equal(transition.visibility!.runId, newRunId);
    assert.equal(transition.visibility!.status, 'Running');

    const state = d.state!;
    assert.equal(state.executionInfo.runId, newRunId);
    assert.equal(state.executionInfo.firstExecutionRunId, 'run-1');
    assert.equal(state.executionInfo.lastEventId, 2);
    assert.deepEqual([state.pendingActivities, state.pendingTimers], [[], []], 'the old run\'s pending work is not carried');
    assert.equal(state.executionInfo.workflowRunExpirationTime, T0 + 3_600_000);
    const task = transition.tasks.find((t): t is WorkflowTaskIntent => t.type === 'WorkflowTask')!;
    assert.deepEqual([task.runId, task.taskQueue, task.scheduledEventId, task.fromEventId, task.lastEventId], [newRunId, 'orders-v2', 2, 1, 2]);
  });

  it('derives the same new run id from the same inputs: applying the completion twice gives equal transitions', () => {
    const run = () => {
      const d = new HistoryDriver();
      d.start();
      return d.completeWorkflowTask([continueAsNew()]);
    };
    assert.deepStrictEqual(run(), run());
    assert.notEqual(continuedRunIdOf('run-1', 5), continuedRunIdOf('run-1', 6));
  });

  it('chains: each run continues the previous one and keeps the first run id', () => {
    const d = new HistoryDriver();
    d.start();
    const runIds = ['run-1'];
    for (let i = 0; i < 3; i++) {
      d.completeWorkflowTask([continueAsNew({ input: [json(i)] })]);
      runIds.push(d.state!.executionInfo.runId);
    }
    assert.equal(new Set(runIds).size, 4);
    assert.equal(d.state!.executionInfo.firstExecutionRunId, 'run-1');
    for (const runId of runIds.slice(0, 3)) assert.equal(d.types(runId).at(-1), 'WorkflowExecutionContinuedAsNew');
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
  });

  it('fails the workflow task when a command follows ContinueAsNew, as Temporal does', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([continueAsNew(), { type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: 1000 }]);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'BadContinueAsNewAttributes');
    assert.equal(d.state!.executionInfo.runId, 'run-1');
    assert.equal(d.state!.executionInfo.status, 'Running');
  });

  it('refuses a ContinueAsNew without a workflow type', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([continueAsNew({ workflowType: '' })]);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed' && failed.attributes.cause === 'BadContinueAsNewAttributes');
  });

  it('fails the task with UnhandledCommand when a signal arrived while it ran, so the workflow sees the signal before it continues', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    signal(d, 'late');
    d.completeWorkflowTask([continueAsNew()], false);
    assert.equal(d.state!.executionInfo.runId, 'run-1');
    assert.deepEqual(d.types(), [
      'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled',
    ]);
    const failed = d.events[3]!;
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed' && failed.attributes.cause === 'UnhandledCommand');
    d.completeWorkflowTask([continueAsNew()]);
    assert.notEqual(d.state!.executionInfo.runId, 'run-1');
  });

  it('moves result waiters that follow runs to the new run and answers the others with ContinuedAsNew', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('AwaitWorkflowExecutionResult', { followRuns: true }, { replyTo: 'follower' });
    d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'this-run-only' });
    const transition = d.completeWorkflowTask([continueAsNew()]);
    assert.deepEqual(transition.replies.map((r) => [r.requestId, r.kind, r.runId, r.executionStatus]), [['this-run-only', 'Result', 'run-1', 'ContinuedAsNew']]);
    const newRunId = d.state!.executionInfo.runId;
    assert.deepEqual(d.state!.resultWaiters.map((w) => w.replyTo.requestId), ['follower']);

    // A caller holding the first run id waits on the chain when it follows runs.
    const attached = d.send('AwaitWorkflowExecutionResult', { followRuns: true }, { replyTo: 'late-follower', runId: 'run-1' });
    assert.equal(attached.rejection, null);
    const refused = d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'no-follow', runId: 'run-1' });
    assert.equal(refused.rejection?.code, 'RunNotFound');

    const done = d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('finished') }]);
    assert.deepEqual(done.replies.map((r) => [r.requestId, r.runId, r.executionStatus]), [
      ['follower', newRunId, 'Completed'], ['late-follower', newRunId, 'Completed'],
    ]);
  });

  it('starts the new run after the requested backoff and carries memo and search attributes unless overridden', () => {
    const d = new HistoryDriver();
    d.start({ memo: { note: json('keep') }, searchAttributes: { Tier: { type: 'Keyword', value: 'gold' } } });
    const transition = d.completeWorkflowTask([continueAsNew({ backoffStartIntervalMs: 5000 })]);
    const newRunId = d.state!.executionInfo.runId;
    assert.deepEqual(transition.events.filter((e) => e.runId === newRunId).map((e) => e.attributes.type), ['WorkflowExecutionStarted']);
    assert.deepEqual(d.state!.memo, { note: json('keep') });
    assert.deepEqual(d.state!.searchAttributes, { Tier: { type: 'Keyword', value: 'gold' } });
    d.advance(5000);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
    assert.equal(d.lastWorkflowTask().runId, newRunId);
  });
});
