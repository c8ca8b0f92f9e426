import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryDriver, json, scheduleActivity, T0 } from './test-kit.js';
import type { ActivityTaskIntent } from './transition.js';

const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

describe('workflow tasks', () => {
  it('runs start → activity → completion with the exact Temporal event sequence and tasks', () => {
    const d = new HistoryDriver();
    d.start();
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
    assert.deepEqual(d.lastWorkflowTask(), {
      type: 'WorkflowTask', namespace: 'default', workflowId: 'order-42', runId: 'run-1', workflowType: 'order',
      taskQueue: 'orders', scheduledEventId: 2, attempt: 1, scheduledTime: T0, startToCloseTimeoutMs: 10_000,
      startedEventIdHint: 3, fromEventId: 1, lastEventId: 2,
      historySizeBytes: d.state!.executionInfo.historySizeBytes, suggestContinueAsNew: false, messages: [],
    });
    assert.ok(d.state!.executionInfo.historySizeBytes > 0, 'the history size is counted as events are appended');
    d.completeWorkflowTask([scheduleActivity('a1')]);
    const activity = d.tasks.at(-1) as ActivityTaskIntent;
    assert.equal(activity.type, 'ActivityTask');
    assert.equal(activity.scheduledEventId, 5);
    d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'activity-worker' });
    d.now += 500;
    d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'activity-worker', result: json('charged') });
    const second = d.lastWorkflowTask();
    assert.equal(second.scheduledEventId, 8);
    assert.equal(second.fromEventId, 4, 'the worker has seen everything before the WorkflowTaskCompleted of its last task');
    assert.equal(second.lastEventId, 8);
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }]);
    assert.deepEqual(d.types(), [
      'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted',
      'ActivityTaskScheduled', 'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled',
      'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCompleted',
    ]);
    assert.deepEqual(d.events.map((e) => e.eventId), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const [, , , completed, scheduled, started, done] = d.events;
    assert.equal(scheduled!.attributes.type === 'ActivityTaskScheduled' && scheduled!.attributes.workflowTaskCompletedEventId, completed!.eventId);
    assert.deepEqual(started!.attributes, { type: 'ActivityTaskStarted', scheduledEventId: 5, identity: 'activity-worker', requestId: 'req-4', attempt: 1, lastFailure: null });
    assert.equal(done!.attributes.type === 'ActivityTaskCompleted' && done!.attributes.startedEventId, 6);
    assert.equal(d.state!.executionInfo.status, 'Completed');
    assert.equal(d.last!.visibility!.status, 'Completed');
    assert.deepEqual(d.state!.closeResult, json('done'));
  });

  it('records a claim without an event and writes WorkflowTaskStarted at the claim time on completion', () => {
    const d = new HistoryDriver();
    d.start();
    d.now += 100;
    const claim = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    assert.equal(claim.events.length, 0);
    assert.equal(claim.changed, true);
    d.now += 100;
    const again = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w2' });
    assert.equal(again.changed, false, 'a second claim of the same attempt changes nothing');
    assert.equal(again.rejection?.code, 'StaleWorkflowTaskClaim', 'the attempt has one holder (claims.ts)');
    d.now += 100;
    d.completeWorkflowTask([], false);
    const started = d.events.find((e) => e.attributes.type === 'WorkflowTaskStarted')!;
    assert.equal(started.eventTime, T0 + 100);
    assert.equal(started.attributes.type === 'WorkflowTaskStarted' && started.attributes.identity, 'w1');
  });

  it('accepts a completion that was never claimed, with Started at the completion time', () => {
    const d = new HistoryDriver();
    d.start();
    d.now += 50;
    d.completeWorkflowTask([], false);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted']);
    assert.equal(d.events[2]!.eventTime, T0 + 50);
    assert.equal(d.state!.pendingWorkflowTask, null);
  });

  it('buffers signals that arrive during an in-flight workflow task and appends them after its completion, in arrival order', () => {
    const d = new HistoryDriver();
    d.start();
    signal(d, 'before-claim');
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    signal(d, 'first');
    const buffered = signal(d, 'second');
    assert.equal(buffered.events.length, 0);
    assert.equal(d.state!.bufferedEvents.length, 3);
    d.completeWorkflowTask([{ type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: 60_000 }], false);
    assert.deepEqual(d.types().slice(2), [
      'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'TimerStarted', 'WorkflowExecutionSignaled', 'WorkflowExecutionSignaled',
      'WorkflowExecutionSignaled', 'WorkflowTaskScheduled',
    ]);
    const names = d.events.flatMap((e) => (e.attributes.type === 'WorkflowExecutionSignaled' ? [e.attributes.signalName] : []));
    assert.deepEqual(names, ['before-claim', 'first', 'second']);
    assert.equal(d.lastWorkflowTask().scheduledEventId, 9);
    assert.equal(d.lastWorkflowTask().fromEventId, 4);
  });

  it('refuses to close the run while events are buffered (UnhandledCommand) and delivers them in a new task at once', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    signal(d, 'late');
    const t = d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }], false);
    assert.equal(t.rejection, null);
    assert.deepEqual(d.types(), [
      'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed',
      'WorkflowExecutionSignaled', 'WorkflowTaskScheduled',
    ]);
    const failed = d.events[3]!.attributes;
    assert.equal(failed.type === 'WorkflowTaskFailed' && failed.cause, 'UnhandledCommand');
    assert.equal(d.state!.executionInfo.status, 'Running');
    const next = d.lastWorkflowTask();
    assert.deepEqual([next.attempt, next.scheduledEventId, next.fromEventId, next.scheduledTime], [1, 6, 1, T0]);
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    assert.equal(d.state!.executionInfo.status, 'Completed');
  });

  it('drops stale completions and failures without events, answering only when asked', () => {
    const d = new HistoryDriver();
    d.start();
    const wrongAttempt = d.send('WorkflowTaskCompleted', { scheduledEventId: 2, attempt: 2, identity: 'w', commands: [], sdkFlags: [], sdkName: null, sdkVersion: null }, { replyTo: 'gw-9' });
    assert.equal(wrongAttempt.rejection?.code, 'StaleWorkflowTaskCompletion');
    assert.equal(wrongAttempt.replies[0]?.kind, 'Error');
    assert.equal(wrongAttempt.replies[0]?.failure?.code, 'StaleWorkflowTaskCompletion');
    const wrongId = d.send('WorkflowTaskFailed', { scheduledEventId: 7, attempt: 1, identity: 'w', cause: 'NonDeterministicError', failure: null });
    assert.equal(wrongId.rejection?.code, 'StaleWorkflowTaskCompletion');
    assert.deepEqual(wrongId.replies, []);
    d.completeWorkflowTask([]);
    const duplicate = d.send('WorkflowTaskCompleted', { scheduledEventId: 2, attempt: 1, identity: 'w', commands: [], sdkFlags: [], sdkName: null, sdkVersion: null });
    assert.equal(duplicate.rejection?.code, 'StaleWorkflowTaskCompletion');
    assert.deepEqual([duplicate.events, duplicate.state, duplicate.changed], [[], null, false]);
    const staleClaim = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w' });
    assert.equal(staleClaim.rejection?.code, 'StaleWorkflowTaskClaim');
  });

  it('fails the task, not the run, for an activity without a start-to-close or schedule-to-close timeout', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([scheduleActivity('pay', { startToCloseTimeoutMs: null })]);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed']);
    const failed = d.events[3]!.attributes;
    assert.ok(failed.type === 'WorkflowTaskFailed');
    assert.equal(failed.cause, 'BadScheduleActivityAttributes');
    assert.match(failed.failure!.message, /activity 'pay' \(charge\) needs a startToCloseTimeout or a scheduleToCloseTimeout/);
    assert.equal(d.state!.executionInfo.status, 'Running');
    assert.equal(d.state!.pendingWorkflowTask!.attempt, 2);
  });

  it('fails the task for a duplicate activity id, a command after a closing one, a bad timer cancel and a signal without a name', () => {
    const cases = [
      { commands: [scheduleActivity('a'), scheduleActivity('a')], cause: 'ScheduleActivityDuplicateId', code: 'ScheduleActivityDuplicateId' },
      { commands: [{ type: 'CompleteWorkflowExecution' as const, result: null }, scheduleActivity('a')], cause: 'BadCompleteWorkflowExecutionAttributes', code: 'BadCompleteWorkflowExecutionAttributes' },
      { commands: [{ type: 'CancelTimer' as const, timerId: 'nope' }], cause: 'BadCancelTimerAttributes', code: 'BadCancelTimerAttributes' },
      { commands: [{ type: 'SignalExternalWorkflowExecution' as const, namespace: null, workflowId: 'w', runId: null, signalName: '', input: [], childWorkflowOnly: false, header: {} }], cause: 'BadSignalWorkflowExecutionAttributes', code: 'BadSignalWorkflowExecutionAttributes' },
    ];
    for (const { commands, cause, code } of cases) {
      const d = new HistoryDriver();
      d.start();
      d.completeWorkflowTask(commands);
      const failed = d.events.at(-1)!.attributes;
      assert.ok(failed.type === 'WorkflowTaskFailed', `${cause}: ${d.types().join()}`);
      assert.equal(failed.cause, cause);
      assert.equal(failed.failure!.code, code);
    }
  });

  it('writes Started + Failed for a failed attempt 1 only, retries transiently with backoff and writes Scheduled(n) + Started + Completed together', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    d.send('WorkflowTaskFailed', { scheduledEventId: 2, attempt: 1, identity: 'w1', cause: 'NonDeterministicError', failure: null });
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed']);
    assert.equal(d.tasks.length, 1, 'attempt 2 waits for its backoff');
    assert.deepEqual(d.state!.pendingWorkflowTask!.scheduledTime, T0 + 1000);
    d.advance(999);
    assert.equal(d.tasks.length, 1);
    d.advance(1);
    const second = d.lastWorkflowTask();
    assert.deepEqual([second.attempt, second.scheduledEventId, second.fromEventId, second.lastEventId, second.startedEventIdHint], [2, 5, 1, 4, 6]);
    d.send('WorkflowTaskStarted', { scheduledEventId: 5, attempt: 2, identity: 'w2' });
    d.send('WorkflowTaskFailed', { scheduledEventId: 5, attempt: 2, identity: 'w2', cause: 'NonDeterministicError', failure: null });
    assert.equal(d.events.length, 4, 'a transient attempt writes nothing when it fails');
    d.advance(2000);
    const third = d.lastWorkflowTask();
    assert.deepEqual([third.attempt, third.scheduledEventId, third.fromEventId], [3, 5, 1]);
    d.completeWorkflowTask([]);
    assert.deepEqual(d.types().slice(4), ['WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted']);
    const scheduled = d.events[4]!;
    assert.deepEqual([scheduled.eventId, scheduled.eventTime], [5, T0 + 3000]);
    assert.equal(scheduled.attributes.type === 'WorkflowTaskScheduled' && scheduled.attributes.attempt, 3);
  });

  it('times a claimed task out after its start-to-close timeout and retries with a backoff capped at a minute', () => {
    const d = new HistoryDriver();
    d.start();
    const backoffs: number[] = [];
    for (let attempt = 1; attempt <= 9; attempt++) {
      const task = d.lastWorkflowTask();
      assert.equal(task.attempt, attempt);
      d.send('WorkflowTaskStarted', { scheduledEventId: task.scheduledEventId, attempt, identity: 'w' });
      d.advance(9_999);
      assert.equal(d.state!.pendingWorkflowTask!.attempt, attempt, 'never before the timeout');
      d.advance(1);
      const pending = d.state!.pendingWorkflowTask!;
      backoffs.push(pending.scheduledTime - d.now);
      d.advance(pending.scheduledTime - d.now);
    }
    assert.deepEqual(backoffs, [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskTimedOut']);
  });

  it('appends buffered events when an attempt fails and keeps them before the retried task', () => {
    const d = new HistoryDriver();
    d.start();
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' });
    signal(d, 's1');
    d.send('WorkflowTaskFailed', { scheduledEventId: 2, attempt: 1, identity: 'w1', cause: 'WorkflowWorkerUnhandledFailure', failure: null });
    assert.deepEqual(d.types().slice(2), ['WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionSignaled']);
    assert.equal(d.state!.pendingWorkflowTask!.scheduledEventId, 6);
    d.advance(1000);
    assert.deepEqual([d.lastWorkflowTask().fromEventId, d.lastWorkflowTask().lastEventId], [1, 5]);
  });

  it('waits for the start delay before the first task; signals meanwhile are appended for it to see', () => {
    const d = new HistoryDriver();
    d.start({ workflowStartDelayMs: 5000 });
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted']);
    assert.equal(d.tasks.length, 0);
    signal(d, 'early');
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled']);
    d.advance(4999);
    assert.equal(d.tasks.length, 0);
    d.advance(1);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.equal(d.lastWorkflowTask().fromEventId, 1);
  });
});
