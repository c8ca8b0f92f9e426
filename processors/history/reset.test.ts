import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command, WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { ParentClosePolicy } from '../../topics/schemas/common/v1-enums.js';
import type { UpdateRequest } from '../../topics/schemas/common/v1-records.js';
import { childRunIdOf, resetRunIdOf } from './deterministic-seed.js';
import { isReappliedChildOutcome } from './reset-children.js';
import { defaultHistoryConfig } from './config.js';
import { resetPointOf } from './reset-point.js';
import { HistoryDriver, json, scheduleActivity, T0, type BodyOf } from './test-kit.js';

const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

/**
 * The reset request the gateway builds from the driver's current run: events 1..eventId, the
 * signals after it and the outcomes of the children initiated before the reset point.
 */
function resetBody(d: HistoryDriver, eventId: number, overrides: Partial<BodyOf<'ResetWorkflowExecution'>> = {}): BodyOf<'ResetWorkflowExecution'> {
  const info = d.state!.executionInfo;
  const events = d.events.filter((e) => e.runId === info.runId);
  const point = resetPointOf(events, eventId);
  const pointEventId = 'problem' in point ? eventId : point.startedEventId;
  const baseEvents = events
    .filter((e) => e.eventId <= eventId || e.attributes.type === 'WorkflowExecutionSignaled' || isReappliedChildOutcome(e, pointEventId))
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

const startChild = (parentClosePolicy: ParentClosePolicy = 'Terminate'): WorkflowCommand => ({
  type: 'StartChildWorkflowExecution', namespace: null, workflowId: 'child', workflowType: 'invoice', taskQueue: null, input: [json(1)],
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy,
  workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {},
});

/** A parent (run `run-p`) whose first task started a child at event 5, and the child's driver (its start not applied yet). */
function parentAndChild(policy: ParentClosePolicy = 'Terminate') {
  const parent = new HistoryDriver(undefined, 'parent');
  const child = new HistoryDriver(undefined, 'child');
  parent.start({ runId: 'run-p' });
  parent.completeWorkflowTask([startChild(policy)]);
  return { parent, child, start: parent.outbox[0]! };
}

const lastCompletion = (d: HistoryDriver) => d.events.filter((e) => e.runId === d.state!.executionInfo.runId && e.attributes.type === 'WorkflowTaskCompleted').at(-1)!.eventId;
const commandsOfType = (commands: readonly Command[], type: string) => commands.filter((c) => c.body.type === type);

describe('reset of a run with child workflows', () => {
  it('keeps a child started before the point pending in the new run, leaves it running, and the child\'s result addressed to the base run reaches the new run', () => {
    const { parent, child, start } = parentAndChild();
    child.receive(start);
    parent.receive(child.outbox[0]!);
    parent.completeWorkflowTask([]);
    const reset = parent.send('ResetWorkflowExecution', resetBody(parent, lastCompletion(parent)), { requestId: 'reset-1' });
    const newRunId = resetRunIdOf('run-p', 'reset-1');
    assert.equal(parent.state!.executionInfo.runId, newRunId);
    assert.deepEqual(commandsOfType(reset.commands, 'TerminateWorkflowExecution'), [], 'the base run\'s parent close policy spares the inherited child');
    assert.deepEqual(parent.state!.pendingChildren.map((c) => [c.initiatedEventId, c.runId, c.startedEventId]), [[5, childRunIdOf('run-p', 5), 6]]);
    parent.completeWorkflowTask([]);

    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('invoiced') }]);
    const notice = child.outbox.at(-1)!;
    assert.equal(notice.runId, 'run-p', 'the child still names the run that started it');
    const answered = parent.receive(notice);
    assert.equal(answered.rejection, null);
    const completed = parent.events.find((e) => e.runId === newRunId && e.attributes.type === 'ChildWorkflowExecutionCompleted')?.attributes;
    assert.ok(completed?.type === 'ChildWorkflowExecutionCompleted');
    assert.deepEqual([completed.result, completed.startedEventId], [json('invoiced'), 6]);
    assert.deepEqual(parent.state!.pendingChildren, []);
  });

  it('applies the base run\'s parent close policy to a child initiated after the reset point only', () => {
    const { parent, child, start } = parentAndChild();
    child.receive(start);
    parent.receive(child.outbox[0]!);
    const reset = parent.send('ResetWorkflowExecution', resetBody(parent, 4));
    assert.deepEqual(commandsOfType(reset.commands, 'TerminateWorkflowExecution').map((c) => [c.workflowId, c.requestId]), [['child', 'parent-close:run-p:5']]);
    assert.deepEqual(parent.state!.pendingChildren, [], 'the new run decides again whether to start the child');
  });

  it('re-applies the start and the end of a child initiated before the point that started and ended after it', () => {
    const { parent, child, start } = parentAndChild();
    signal(parent, 'poke');
    parent.completeWorkflowTask([]);
    const point = lastCompletion(parent);
    child.receive(start);
    parent.receive(child.outbox[0]!);
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('early') }]);
    parent.receive(child.outbox.at(-1)!);
    parent.send('ResetWorkflowExecution', resetBody(parent, point));
    const fresh = parent.events.filter((e) => e.runId === parent.state!.executionInfo.runId).slice(point - 1);
    assert.deepEqual(fresh.map((e) => [e.eventId, e.attributes.type]), [
      [point, 'WorkflowTaskFailed'], [point + 1, 'ChildWorkflowExecutionStarted'], [point + 2, 'ChildWorkflowExecutionCompleted'], [point + 3, 'WorkflowTaskScheduled'],
    ]);
    const completed = fresh[2]!.attributes;
    assert.ok(completed.type === 'ChildWorkflowExecutionCompleted');
    assert.equal(completed.startedEventId, point + 1, 'the end points at the new run\'s Started event');
    assert.deepEqual(parent.state!.pendingChildren, []);
  });

  it('takes the answers of a child not yet started at the reset point, through a second reset too, and its parent close policy reaches the child', () => {
    const { parent, child, start } = parentAndChild();
    signal(parent, 'poke');
    parent.completeWorkflowTask([]);
    const point = lastCompletion(parent);
    parent.send('ResetWorkflowExecution', resetBody(parent, point), { requestId: 'reset-1' });
    parent.send('ResetWorkflowExecution', resetBody(parent, point), { requestId: 'reset-2' });
    const secondRun = resetRunIdOf(resetRunIdOf('run-p', 'reset-1'), 'reset-2');
    assert.equal(parent.state!.executionInfo.runId, secondRun);
    child.receive(start);
    assert.equal(parent.receive(child.outbox[0]!).rejection, null, 'the start answer addressed to run-p reaches the second reset run');
    assert.equal(parent.state!.pendingChildren[0]?.runId, childRunIdOf('run-p', 5));
    parent.completeWorkflowTask([]);
    parent.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    const policy = commandsOfType(parent.last!.commands, 'TerminateWorkflowExecution');
    assert.deepEqual(policy.map((c) => c.requestId), ['parent-close:run-p:5'], 'named after the run the child knows as its parent');
    child.receive(policy[0]!);
    assert.equal(child.state!.executionInfo.status, 'Terminated');
  });

  it('sends a childWorkflowOnly signal to an inherited child in the name of the run it knows as parent, and takes the answer', () => {
    const { parent, child, start } = parentAndChild();
    child.receive(start);
    parent.receive(child.outbox[0]!);
    parent.completeWorkflowTask([]);
    parent.send('ResetWorkflowExecution', resetBody(parent, lastCompletion(parent)));
    parent.completeWorkflowTask([{ type: 'SignalExternalWorkflowExecution', namespace: null, workflowId: 'child', runId: null, signalName: 'pay', input: [], childWorkflowOnly: true, header: {} }]);
    const sent = commandsOfType(parent.last!.commands, 'SignalWorkflowExecution')[0]!;
    assert.ok(sent.body.type === 'SignalWorkflowExecution');
    assert.equal(sent.body.externalInitiator?.runId, 'run-p');
    assert.equal(child.receive(sent).rejection, null, 'the child takes it as its parent\'s');
    const answer = child.outbox.at(-1)!;
    assert.deepEqual([answer.body.type, answer.runId], ['RecordSignalExternalWorkflowExecutionResult', 'run-p']);
    assert.equal(parent.receive(answer).rejection, null);
    assert.deepEqual(parent.state!.pendingSignalExternals, []);
    assert.ok(parent.types().includes('ExternalWorkflowExecutionSignaled'));
  });

  it('resets a child without telling its parent the child ended; the parent gets the new run\'s result', () => {
    const { parent, child, start } = parentAndChild();
    child.receive(start);
    parent.receive(child.outbox[0]!);
    parent.completeWorkflowTask([]);
    child.completeWorkflowTask([]);
    const reset = child.send('ResetWorkflowExecution', resetBody(child, 4));
    assert.deepEqual(commandsOfType(reset.commands, 'RecordChildExecutionCompleted'), [], 'the base run\'s termination is not reported');
    assert.equal(child.state!.executionInfo.parent?.runId, 'run-p');
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('after reset') }]);
    const notice = child.outbox.at(-1)!;
    assert.deepEqual([notice.body.type, notice.runId], ['RecordChildExecutionCompleted', 'run-p']);
    const recorded = parent.receive(notice);
    assert.equal(recorded.rejection, null);
    const completed = parent.events.find((e) => e.attributes.type === 'ChildWorkflowExecutionCompleted')?.attributes;
    assert.equal(completed?.type, 'ChildWorkflowExecutionCompleted', parent.types().join());
    if (completed?.type !== 'ChildWorkflowExecutionCompleted') return;
    assert.deepEqual([completed.result, completed.workflowExecution.runId], [json('after reset'), child.state!.executionInfo.runId]);
  });

  it('does not let a run that did not inherit the child take an answer addressed to another run (a continue-as-new successor with a child at the same event)', () => {
    const { parent, child, start } = parentAndChild('Abandon');
    signal(parent, 'poke');
    parent.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [], workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null,
      backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    }]);
    const successor = parent.state!.executionInfo.runId;
    assert.notEqual(successor, 'run-p');
    parent.completeWorkflowTask([startChild()]);
    assert.deepEqual(parent.state!.pendingChildren.map((c) => [c.initiatedEventId, c.runId]), [[5, null]]);
    child.receive(start);
    const stale = parent.receive(child.outbox[0]!);
    assert.equal(stale.rejection?.code, 'StaleChildMessage');
    assert.deepEqual(parent.state!.pendingChildren.map((c) => [c.initiatedEventId, c.runId]), [[5, null]]);
  });
});

const updateRequest = (updateId: string): UpdateRequest => ({ updateId, identity: 'client', name: 'approve', header: {}, args: [json(updateId)] });
const update = (d: HistoryDriver, updateId: string, replyTo: string) =>
  d.send('UpdateWorkflowExecution', { request: updateRequest(updateId), waitForStage: 'Completed' }, { replyTo });
const accept = (updateId: string): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/accept`, protocolInstanceId: updateId,
  body: { type: 'UpdateAcceptance', acceptedRequestMessageId: `${updateId}/request`, acceptedRequestSequencingEventId: 1, acceptedRequest: updateRequest(updateId) },
});
const respond = (updateId: string, result: unknown): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/response`, protocolInstanceId: updateId, body: { type: 'UpdateResponse', result: json(result), failure: null },
});
const replyTo = (d: HistoryDriver, requestId: string) => d.last!.replies.find((r) => r.requestId === requestId);

/** A run that accepted and completed update `done`, accepted update `open` (its caller still waits) and completed a later task (the reset point). */
function runWithUpdates(): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([]);
  update(d, 'done', 'r-done');
  update(d, 'open', 'r-open');
  d.completeWorkflowTask([accept('done'), respond('done', 'approved done'), accept('open')]);
  signal(d, 'poke');
  d.completeWorkflowTask([]);
  return d;
}

describe('reset of a run with updates', () => {
  it('keeps an update completed before the point done, and an update accepted before it in flight, its caller following it to the new run', () => {
    const d = runWithUpdates();
    const reset = d.send('ResetWorkflowExecution', resetBody(d, lastCompletion(d)));
    assert.equal(reset.replies.find((r) => r.requestId === 'r-open'), undefined, 'the caller is not told the base run closed');
    const state = d.state!;
    assert.notEqual(state.executionInfo.runId, 'run-1');
    assert.deepEqual(state.pendingUpdates.filter((u) => u.replyTo !== null).map((u) => [u.request.updateId, u.replyTo!.requestId]), [['open', 'r-open']]);

    update(d, 'done', 'r-done-again');
    assert.deepEqual([replyTo(d, 'r-done-again')?.kind, JSON.parse(replyTo(d, 'r-done-again')!.payload!.data.toString())], ['UpdateResult', 'approved done'], 'a repeated id gets the outcome recorded before the point');
    d.completeWorkflowTask([respond('open', 'approved open')]);
    const answer = replyTo(d, 'r-open');
    assert.deepEqual([answer?.kind, answer?.runId, JSON.parse(answer!.payload!.data.toString())], ['UpdateResult', state.executionInfo.runId, 'approved open']);
    const completed = d.events.at(-1)!.attributes;
    assert.ok(completed.type === 'WorkflowExecutionUpdateCompleted');
    assert.equal(completed.acceptedEventId, d.events.find((e) => e.runId === state.executionInfo.runId && e.attributes.type === 'WorkflowExecutionUpdateAccepted' && e.attributes.protocolInstanceId === 'open')!.eventId);
  });

  it('does not re-apply an update admitted after the point: its caller is told the base run closed', () => {
    const d = runWithUpdates();
    const point = lastCompletion(d);
    update(d, 'late', 'r-late');
    const reset = d.send('ResetWorkflowExecution', resetBody(d, point));
    const told = reset.replies.find((r) => r.requestId === 'r-late');
    assert.deepEqual([told?.kind, told?.failure?.code], ['Error', 'WorkflowClosed']);
    assert.deepEqual(d.state!.pendingUpdates.map((u) => u.request.updateId).sort(), ['done', 'open', 'open']);
  });
});

describe('reset of activities asked to cancel', () => {
  it('gives an activity still asked to cancel at the reset point a new unclaimed attempt under the cancel grace, and none to one that closed before it', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([scheduleActivity('a1'), scheduleActivity('a2')]);
    d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw' });
    d.send('ActivityTaskStarted', { scheduledEventId: 6, attempt: 1, identity: 'aw' });
    signal(d, 'stop');
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }, { type: 'RequestCancelActivityTask', scheduledEventId: 6 }]);
    d.send('ActivityTaskCanceled', { scheduledEventId: 5, attempt: 1, identity: 'aw', details: null });
    d.completeWorkflowTask([]);
    const point = d.events.filter((e) => e.attributes.type === 'WorkflowTaskCompleted').at(-1)!.eventId;
    d.now += 5000;
    d.send('ResetWorkflowExecution', resetBody(d, point), { requestId: 'reset-1' });
    const state = d.state!;
    assert.equal(state.executionInfo.runId, resetRunIdOf('run-1', 'reset-1'));
    assert.deepEqual(state.pendingActivities.map((a) => [a.scheduledEventId, a.cancelRequested, a.startedTime]), [[6, true, null]]);
    assert.deepEqual(state.activityCancelDeadlines, [{ scheduledEventId: 6, deadline: d.now + defaultHistoryConfig.unclaimedActivityCancelGraceMs }]);
  });
});
