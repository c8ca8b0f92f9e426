import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resetRunIdOf } from './deterministic-seed.js';
import { HistoryDriver, json, scheduleActivity, T0, type BodyOf } from './test-kit.js';

const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

/** The reset request the gateway builds from the driver's current run: events 1..eventId and the signals after it. */
function resetBody(d: HistoryDriver, eventId: number, overrides: Partial<BodyOf<'ResetWorkflowExecution'>> = {}): BodyOf<'ResetWorkflowExecution'> {
  const info = d.state!.executionInfo;
  const events = d.events.filter((e) => e.runId === info.runId);
  const baseEvents = events
    .filter((e) => e.eventId <= eventId || e.attributes.type === 'WorkflowExecutionSignaled')
    .map(({ eventId: id, eventTime, attributes }) => ({ eventId: id, eventTime, attributes }));
  return { baseRunId: info.runId, workflowTaskEventId: eventId, reason: 'bad deploy', identity: 'operator', baseLastEventId: info.lastEventId, baseEvents, ...overrides };
}

/**
 * A run that scheduled activities a1, a2 and a 1 h timer (task 1), saw a1 complete (task 2, which
 * completed at event 12), got signal `go` and whose next task failed (bad deploy).
 */
function runWithBadTask(): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([scheduleActivity('a1'), scheduleActivity('a2'), { type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: 3_600_000 }]);
  d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw' });
  d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'aw', result: json('a1 done') });
  d.now += 1000;
  d.completeWorkflowTask([]);
  signal(d, 'go');
  const { scheduledEventId, attempt } = d.lastWorkflowTask();
  d.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'worker-2' });
  d.send('WorkflowTaskFailed', { scheduledEventId, attempt, identity: 'worker-2', cause: 'NonDeterministicError', failure: null } as BodyOf<'WorkflowTaskFailed'>);
  return d;
}

describe('reset', () => {
  it('starts a new run with the base events up to the reset task\'s WorkflowTaskStarted, a WorkflowTaskFailed naming the reset, the later signals and a new workflow task, and terminates the base run with reason "reset"', () => {
    const d = runWithBadTask();
    assert.deepEqual(d.types('run-1').slice(7, 15), [
      'ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted',
      'WorkflowExecutionSignaled', 'WorkflowTaskScheduled', 'WorkflowTaskStarted',
    ]);
    const base = d.events.filter((e) => e.runId === 'run-1');
    d.now += 5000;
    const transition = d.send('ResetWorkflowExecution', resetBody(d, 12), { requestId: 'reset-1', replyTo: 'gw-reset' });

    const newRunId = resetRunIdOf('run-1', 'reset-1');
    assert.deepEqual(transition.replies, [{ requestId: 'gw-reset', kind: 'StartAccepted', runId: newRunId, payload: null, failure: null, executionStatus: null }]);
    const terminated = d.events.filter((e) => e.runId === 'run-1').at(-1)!;
    assert.deepEqual(terminated.attributes, { type: 'WorkflowExecutionTerminated', reason: 'reset', details: null, identity: 'operator' });
    assert.equal(transition.closedRun!.visibility.status, 'Terminated');

    const fresh = d.events.filter((e) => e.runId === newRunId);
    assert.deepEqual(fresh.slice(0, 11).map((e) => [e.eventId, e.eventTime, e.attributes]), base.slice(0, 11).map((e) => [e.eventId, e.eventTime, e.attributes]), 'events 1..11 are the base run\'s');
    assert.deepEqual(fresh.slice(11).map((e) => [e.eventId, e.attributes.type]), [[12, 'WorkflowTaskFailed'], [13, 'WorkflowExecutionSignaled'], [14, 'WorkflowTaskScheduled']]);
    const failed = fresh[11]!.attributes;
    assert.ok(failed.type === 'WorkflowTaskFailed');
    assert.deepEqual([failed.scheduledEventId, failed.startedEventId, failed.cause, failed.failure?.code, failed.failure?.message], [10, 11, 'UnhandledCommand', 'ResetWorkflow', 'bad deploy']);
    assert.deepEqual(JSON.parse(failed.failure!.details!.data.toString('utf8')), { reason: 'bad deploy', baseRunId: 'run-1', newRunId });

    const state = d.state!;
    assert.equal(state.executionInfo.runId, newRunId);
    assert.equal(state.executionInfo.firstExecutionRunId, 'run-1');
    assert.equal(state.executionInfo.status, 'Running');
    assert.equal(state.executionInfo.lastWorkflowTaskCompletedEventId, 4);
    assert.equal(state.signalCount, 1);
    assert.deepEqual(state.pendingActivities.map((a) => [a.activityId, a.attempt, a.startedTime]), [['a2', 1, null]], 'a1 completed before the reset point, a2 did not');
    assert.deepEqual(state.pendingTimers, [{ timerId: 't1', startedEventId: 7, expiryTime: T0 + 3_600_000 }]);
    assert.deepEqual(transition.tasks.filter((t) => t.runId === newRunId).map((t) => t.type).sort(), ['ActivityTask', 'WorkflowTask']);
    assert.equal(d.lastWorkflowTask().scheduledEventId, 14);
    assert.equal(d.lastWorkflowTask().fromEventId, 4);
  });

  it('names the reset point by a WorkflowTaskStarted or WorkflowTaskFailed as well as by a WorkflowTaskCompleted', () => {
    const byStarted = runWithBadTask();
    byStarted.send('ResetWorkflowExecution', resetBody(byStarted, 11));
    assert.equal(byStarted.state!.executionInfo.lastEventId, 14);
    const byFailed = runWithBadTask();
    byFailed.send('ResetWorkflowExecution', resetBody(byFailed, 16));
    const kept = byFailed.events.filter((e) => e.runId === byFailed.state!.executionInfo.runId);
    assert.deepEqual(kept.slice(15).map((e) => e.attributes.type), ['WorkflowTaskFailed', 'WorkflowTaskScheduled'], 'no signal came after the failed task');
    assert.equal(kept[14]!.attributes.type, 'WorkflowTaskStarted');
  });

  it('refuses an event that is not a workflow task event, or not in the run, with InvalidArgument and changes nothing', () => {
    const d = runWithBadTask();
    const notTask = d.send('ResetWorkflowExecution', resetBody(d, 5), { replyTo: 'gw-1' });
    assert.equal(notTask.rejection?.code, 'InvalidArgument');
    assert.match(notTask.rejection!.message, /event 5 is a ActivityTaskScheduled, not a workflow task event/);
    assert.equal(notTask.replies[0]?.kind, 'Error');
    const missing = d.send('ResetWorkflowExecution', resetBody(d, 99));
    assert.match(missing.rejection!.message, /event 99 is not in run run-1/);
    assert.equal(d.state!.executionInfo.runId, 'run-1');
  });

  it('refuses a request built from an older history of the run with ResetBaseChanged', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([{ type: 'StartTimer', timerId: 't1', startToFireTimeoutMs: 60_000 }]);
    const body = resetBody(d, 4);
    signal(d, 'late');
    const stale = d.send('ResetWorkflowExecution', body);
    assert.equal(stale.rejection?.code, 'ResetBaseChanged');
    assert.match(stale.rejection!.message, /is at event 7, the reset was built from its history up to event 5/);
    assert.equal(d.state!.executionInfo.runId, 'run-1');
  });

  it('re-applies the signals the base run held back behind its in-flight workflow task', () => {
    const d = runWithBadTask();
    d.advance(2_000);
    const { scheduledEventId, attempt } = d.lastWorkflowTask();
    d.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'worker-2' });
    signal(d, 'buffered');
    d.send('ResetWorkflowExecution', resetBody(d, 12));
    const signals = d.events.filter((e) => e.runId === d.state!.executionInfo.runId && e.attributes.type === 'WorkflowExecutionSignaled');
    assert.deepEqual(signals.map((e) => (e.attributes.type === 'WorkflowExecutionSignaled' ? e.attributes.signalName : '')), ['go', 'buffered']);
  });

  it('answers a redelivered request with the run it created, and refuses a reset of a run that is not current with RunNotFound', () => {
    const d = runWithBadTask();
    const body = resetBody(d, 12);
    d.send('ResetWorkflowExecution', body, { requestId: 'reset-1' });
    const eventCount = d.events.length;
    const again = d.send('ResetWorkflowExecution', body, { requestId: 'reset-1', replyTo: 'gw-2' });
    assert.equal(again.replies[0]?.kind, 'StartAccepted');
    assert.equal(again.replies[0]?.runId, resetRunIdOf('run-1', 'reset-1'));
    assert.equal(d.events.length, eventCount);
    const other = d.send('ResetWorkflowExecution', body, { requestId: 'reset-2' });
    assert.equal(other.rejection?.code, 'RunNotFound');
  });

  it('resets a closed run without writing to it, and moves result waiters that follow runs to the new run', () => {
    const d = runWithBadTask();
    d.send('AwaitWorkflowExecutionResult', { followRuns: true }, { replyTo: 'follower' });
    const reset = d.send('ResetWorkflowExecution', resetBody(d, 12));
    assert.deepEqual(reset.replies, [], 'the follower is not answered by the base run\'s termination');
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }]);
    assert.deepEqual(d.last!.replies.map((r) => [r.requestId, r.kind, r.executionStatus]), [['follower', 'Result', 'Completed']]);

    const completedRun = d.state!.executionInfo.runId;
    const second = d.send('ResetWorkflowExecution', resetBody(d, 4), { requestId: 'reset-again' });
    assert.equal(second.rejection, null);
    assert.equal(second.closedRun, null, 'the completed run is left as it closed');
    assert.equal(d.events.filter((e) => e.attributes.type === 'WorkflowExecutionTerminated').length, 1, 'only the first base run was terminated');
    assert.equal(d.state!.executionInfo.runId, resetRunIdOf(completedRun, 'reset-again'));
    assert.deepEqual(d.types().slice(-4), ['WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled'], 'signal go, received after event 4, is re-applied');
  });
});
