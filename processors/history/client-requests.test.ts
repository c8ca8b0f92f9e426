import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHistoryConfig } from './config.js';
import { HistoryDriver, failure, json, retryPolicy, scheduleActivity } from './test-kit.js';
import { timersOf } from './timers.js';

const signal = (d: HistoryDriver, name: string, requestId?: string, replyTo?: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false }, { requestId, replyTo });

describe('signals', () => {
  it('appends a signal and schedules a workflow task when none is in flight', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([]);
    const t = signal(d, 'packed');
    assert.deepEqual(t.events.map((e) => e.attributes.type), ['WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.deepEqual(t.tasks.map((x) => x.type), ['WorkflowTask']);
  });

  it('deduplicates by request id within a bounded window, forgetting the oldest', () => {
    const d = new HistoryDriver({ ...defaultHistoryConfig, requestIdWindow: 3 });
    d.start();
    signal(d, 'a', 'sig-1');
    assert.equal(signal(d, 'a', 'sig-1').changed, false);
    for (const id of ['sig-2', 'sig-3', 'sig-4']) signal(d, 'b', id);
    assert.deepEqual(d.state!.requestIds, ['sig-2', 'sig-3', 'sig-4']);
    assert.equal(signal(d, 'a', 'sig-1').changed, true, 'out of the window: accepted again');
  });

  it('refuses a signal when the buffer behind the in-flight task is full', () => {
    const d = new HistoryDriver({ ...defaultHistoryConfig, maxBufferedEvents: 2 });
    d.start();
    signal(d, 'a');
    signal(d, 'b');
    const t = signal(d, 'c', undefined, 'gw');
    assert.deepEqual([t.rejection?.code, t.replies[0]?.failure?.code], ['ResourceExhausted', 'ResourceExhausted']);
  });

  it('refuses a signal to a closed run', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    assert.equal(signal(d, 'late').rejection?.code, 'WorkflowClosed');
  });
});

describe('cancellation requests', () => {
  it('records the request once and lets the workflow cancel itself', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([]);
    const cancel = { identity: 'ops', reason: 'customer left', externalInitiator: null, childWorkflowOnly: false };
    d.send('RequestCancelWorkflowExecution', cancel);
    assert.equal(d.send('RequestCancelWorkflowExecution', cancel).changed, false);
    assert.deepEqual(d.types().slice(-2), ['WorkflowExecutionCancelRequested', 'WorkflowTaskScheduled']);
    d.completeWorkflowTask([{ type: 'CancelWorkflowExecution', details: json('bye') }]);
    assert.deepEqual(d.types().slice(-3), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCanceled']);
    assert.equal(d.state!.executionInfo.status, 'Canceled');
  });
});

describe('termination', () => {
  it('drops the in-flight task, appends buffered events, closes the run, stops the activities a worker may be running and answers waiters', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([scheduleActivity('a1'), scheduleActivity('a2'), scheduleActivity('a3', { retryPolicy: retryPolicy() }), { type: 'StartTimer', timerId: 't', startToFireTimeoutMs: 1000 }]);
    d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw' });
    // a2 (6) was dispatched and may run unclaimed; a3 (7) waits for its retry and runs nowhere.
    d.send('ActivityTaskFailed', { scheduledEventId: 7, attempt: 1, identity: 'aw', failure: failure('Flaky'), lastHeartbeatDetails: null });
    d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-wait' });
    signal(d, 'x');
    d.send('WorkflowTaskStarted', { scheduledEventId: d.lastWorkflowTask().scheduledEventId, attempt: 1, identity: 'w' });
    signal(d, 'y');
    const t = d.send('TerminateWorkflowExecution', { reason: 'stuck', details: json('OPS-1'), identity: 'ops' });
    assert.deepEqual(t.events.map((e) => e.attributes.type), ['WorkflowExecutionSignaled', 'WorkflowExecutionTerminated']);
    assert.deepEqual(t.tasks.map((x) => [x.type, x.type === 'CancelActivity' && x.scheduledEventId]), [['CancelActivity', 5], ['CancelActivity', 6]]);
    assert.deepEqual(t.replies.map((r) => [r.requestId, r.kind, r.executionStatus, r.failure?.message]), [['gw-wait', 'Result', 'Terminated', 'stuck']]);
    assert.equal(t.visibility?.status, 'Terminated');
    assert.deepEqual(timersOf(t.state!, defaultHistoryConfig), []);
    assert.deepEqual([t.state!.pendingActivities, t.state!.pendingTimers, t.state!.pendingWorkflowTask], [[], [], null]);
    assert.equal(d.send('TerminateWorkflowExecution', { reason: 'again', details: null, identity: 'ops' }).rejection?.code, 'WorkflowClosed');
  });
});

describe('awaiting the result', () => {
  it('answers at once for a closed run, at close for a running one, and with an error for an unknown workflow', () => {
    const unknown = new HistoryDriver().send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-0' });
    assert.deepEqual([unknown.replies[0]?.kind, unknown.replies[0]?.failure?.code], ['Error', 'WorkflowNotFound']);
    const d = new HistoryDriver();
    d.start();
    const waiting = d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-1' });
    assert.deepEqual([waiting.replies, waiting.changed], [[], true]);
    const close = d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json(42) }]);
    assert.deepEqual(close.replies, [{ requestId: 'gw-1', kind: 'Result', runId: 'run-1', payload: json(42), failure: null, executionStatus: 'Completed' }]);
    const later = d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-2' });
    assert.deepEqual([later.replies[0]?.payload, later.changed], [json(42), false]);
  });
});
