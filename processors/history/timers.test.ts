import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryDriver, json, scheduleActivity, T0 } from './test-kit.js';
import { applyTimer, timersOf } from './timers.js';

function withTimer(ms: number): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([{ type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: ms }]);
  return d;
}

describe('user timers', () => {
  it('fire at their expiry, never before, once', () => {
    const d = withTimer(60_000);
    const [ref] = d.timers();
    assert.deepEqual(ref, { kind: 'UserTimer', fireTime: T0 + 60_000, identity: 'run-1:timer:5' });
    const early = applyTimer(d.state!, ref!, T0 + 59_999);
    assert.deepEqual([early.changed, early.events], [false, []]);
    const fired = applyTimer(d.state!, ref!, T0 + 90_000);
    assert.deepEqual(fired.events.map((e) => e.attributes.type), ['TimerFired', 'WorkflowTaskScheduled']);
    assert.deepEqual(fired.events[0]!.attributes, { type: 'TimerFired', timerId: 't1', startedEventId: 5 });
    const again = applyTimer(fired.state!, ref!, T0 + 90_001);
    assert.equal(again.changed, false, 'a fired timer is no longer armed');
    assert.deepEqual(timersOf(fired.state!, d.config).filter((t) => t.kind === 'UserTimer'), []);
  });

  it('is canceled by CancelTimer, after which its deadline is stale', () => {
    const d = withTimer(60_000);
    const [ref] = d.timers();
    d.send('SignalWorkflowExecution', { signalName: 'stop', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.completeWorkflowTask([{ type: 'CancelTimer', timerId: 't1' }]);
    assert.deepEqual(d.types().slice(-3), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'TimerCanceled']);
    assert.equal(applyTimer(d.state!, ref!, T0 + 60_000).changed, false);
  });

  it('drops a buffered TimerFired when the workflow cancels the timer in the same task', () => {
    const d = withTimer(1000);
    d.send('SignalWorkflowExecution', { signalName: 'stop', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.send('WorkflowTaskStarted', { scheduledEventId: 7, attempt: 1, identity: 'w' });
    d.advance(1000);
    assert.equal(d.state!.bufferedEvents.length, 1);
    d.completeWorkflowTask([{ type: 'CancelTimer', timerId: 't1' }], false);
    assert.deepEqual(d.types().slice(-3), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'TimerCanceled']);
    assert.equal(d.state!.pendingWorkflowTask, null, 'nothing new for the workflow');
  });
});

describe('stale deadlines', () => {
  it('do nothing once the activity finished, the heartbeat moved or the attempt changed', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([scheduleActivity('a1', { heartbeatTimeoutMs: 5000 })]);
    d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw' });
    const heartbeat = d.timers().find((t) => t.kind === 'Heartbeat')!;
    d.now += 1000;
    d.send('ActivityTaskHeartbeat', { scheduledEventId: 5, attempt: 1, identity: 'aw', details: null });
    assert.equal(applyTimer(d.state!, heartbeat, T0 + 5000).changed, false);
    const startToClose = d.timers().find((t) => t.kind === 'StartToClose')!;
    d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'aw', result: json(1) });
    assert.equal(applyTimer(d.state!, startToClose, T0 + 60_000).changed, false);
  });

  it('do nothing once the workflow task they timed completed', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w' });
    const timeout = d.timers().find((t) => t.kind === 'WorkflowTaskTimeout')!;
    assert.equal(timeout.fireTime, T0 + 10_000);
    d.completeWorkflowTask([], false);
    assert.equal(applyTimer(d.state!, timeout, T0 + 10_000).changed, false);
  });
});

describe('run timeouts', () => {
  it('time the run out at the run timeout, dropping the in-flight task and appending buffered events first', () => {
    const d = new HistoryDriver();
    d.start({ workflowRunTimeoutMs: 30_000 }, { replyTo: 'gw-start' });
    d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-wait' });
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w' });
    d.send('SignalWorkflowExecution', { signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.advance(9_999);
    d.send('WorkflowTaskFailed', { scheduledEventId: 2, attempt: 1, identity: 'w', cause: 'NonDeterministicError', failure: null });
    d.advance(30_000 - 9_999);
    assert.deepEqual(d.types(), [
      'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed',
      'WorkflowExecutionSignaled', 'WorkflowExecutionTimedOut',
    ]);
    assert.equal(d.state!.executionInfo.status, 'TimedOut');
    assert.deepEqual(d.timers(), []);
    const [reply] = d.last!.replies;
    assert.deepEqual([reply!.requestId, reply!.kind, reply!.executionStatus, reply!.failure?.code], ['gw-wait', 'Result', 'TimedOut', 'TimedOut']);
  });

  it('defaults the run timeout to the execution timeout and reports the execution timeout as final', () => {
    const d = new HistoryDriver();
    d.start({ workflowExecutionTimeoutMs: 10_000 });
    assert.deepEqual(d.timers().map((t) => [t.kind, t.fireTime]), [
      ['WorkflowTaskScheduleToStart', T0 + 300_000], ['RunTimeout', T0 + 10_000], ['ExecutionTimeout', T0 + 10_000],
    ]);
    const started = d.events[0]!.attributes;
    assert.ok(started.type === 'WorkflowExecutionStarted');
    assert.deepEqual([started.workflowRunTimeoutMs, started.workflowExecutionExpirationTime], [10_000, T0 + 10_000]);
  });
});
