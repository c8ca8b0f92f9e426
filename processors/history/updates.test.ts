import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { UpdateRequest } from '../../topics/schemas/common/v1-records.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { failure, HistoryDriver, json, scheduleActivity } from './test-kit.js';
import { encodeUpdateWithStart, UPDATE_WITH_START_HEADER } from '../../topics/schemas/command/update-with-start-header.js';

const request = (updateId: string, name = 'addItem', args = [json(updateId)]): UpdateRequest => ({ updateId, identity: 'client', name, header: {}, args });

function update(d: HistoryDriver, updateId: string, replyTo: string, waitForStage: 'Accepted' | 'Completed' = 'Completed', name = 'addItem') {
  return d.send('UpdateWorkflowExecution', { request: request(updateId, name), waitForStage }, { replyTo });
}

const accept = (updateId: string): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/accept`, protocolInstanceId: updateId,
  body: { type: 'UpdateAcceptance', acceptedRequestMessageId: `${updateId}/request`, acceptedRequestSequencingEventId: 1, acceptedRequest: request(updateId) },
});
const rejectUpdate = (updateId: string): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/reject`, protocolInstanceId: updateId,
  body: { type: 'UpdateRejection', rejectedRequestMessageId: `${updateId}/request`, rejectedRequestSequencingEventId: 1, rejectedRequest: request(updateId), failure: failure('NegativeQuantity') },
});
const respond = (updateId: string, result: unknown): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/response`, protocolInstanceId: updateId, body: { type: 'UpdateResponse', result: json(result), failure: null },
});
const respondFailure = (updateId: string): WorkflowCommand => ({
  type: 'ProtocolMessage', messageId: `${updateId}/response`, protocolInstanceId: updateId, body: { type: 'UpdateResponse', result: null, failure: failure('OutOfStock') },
});

/** A started run whose first task completed with no command: idle, no task in flight. */
function idleRun(config: HistoryConfig = defaultHistoryConfig): HistoryDriver {
  const d = new HistoryDriver(config);
  d.start();
  d.completeWorkflowTask([]);
  return d;
}

const replyOf = (d: HistoryDriver, requestId: string) => d.last!.replies.find((r) => r.requestId === requestId);

describe('workflow updates', () => {
  it('an update to an idle run gets a speculative task that carries it and writes nothing', () => {
    const d = idleRun();
    const before = d.events.length;
    const t = update(d, 'u1', 'r1');
    assert.equal(t.events.length, 0, 'admitting an update writes no event');
    const task = d.lastWorkflowTask();
    assert.equal(task.scheduledEventId, d.state!.executionInfo.lastEventId + 1, 'the task has no WorkflowTaskScheduled yet');
    assert.deepEqual(task.messages.map((m) => m.request.updateId), ['u1']);
    assert.equal(d.events.length, before);
  });

  it('a rejection by the validator writes nothing at all and answers the caller with the validator failure', () => {
    const d = idleRun();
    const before = d.events.length;
    update(d, 'u1', 'r1');
    d.completeWorkflowTask([rejectUpdate('u1')]);
    assert.equal(d.events.length, before, 'no WorkflowTaskScheduled/Started/Completed for a task that only rejected updates');
    const reply = replyOf(d, 'r1');
    assert.equal(reply?.kind, 'Error');
    assert.equal(reply?.failure?.code, 'UpdateRejected');
    assert.equal(reply?.failure?.cause?.code, 'NegativeQuantity');
    assert.match(reply!.failure!.message, /NegativeQuantity happened/);
    assert.equal(d.state!.pendingWorkflowTask, null);
    assert.deepEqual(d.state!.pendingUpdates, []);
  });

  it('an accepted update that completes in the same task writes Accepted and Completed and answers with the result', () => {
    const d = idleRun();
    const before = d.events.length;
    update(d, 'u1', 'r1');
    d.completeWorkflowTask([accept('u1'), respond('u1', { items: 3 })]);
    assert.deepEqual(d.types().slice(before), [
      'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionUpdateAccepted', 'WorkflowExecutionUpdateCompleted',
    ]);
    const [accepted, completed] = d.events.slice(-2);
    assert.ok(accepted?.attributes.type === 'WorkflowExecutionUpdateAccepted' && completed?.attributes.type === 'WorkflowExecutionUpdateCompleted');
    assert.equal(accepted.attributes.acceptedRequest.name, 'addItem');
    assert.equal(completed.attributes.acceptedEventId, accepted.eventId);
    const reply = replyOf(d, 'r1');
    assert.equal(reply?.kind, 'UpdateResult');
    assert.deepEqual(JSON.parse(reply!.payload!.data.toString()), { items: 3 });
    assert.equal(reply?.failure, null);
  });

  it('a caller waiting for stage Accepted is answered at acceptance; the handler finishes in a later task', () => {
    const d = idleRun();
    update(d, 'u1', 'r1', 'Accepted');
    d.completeWorkflowTask([accept('u1'), scheduleActivity('1')]);
    assert.equal(replyOf(d, 'r1')?.kind, 'Accepted');
    update(d, 'u1', 'r2', 'Completed');
    assert.equal(d.last!.events.length, 0, 'a second caller of an update in flight writes nothing');
    const scheduled = d.events.find((e) => e.attributes.type === 'ActivityTaskScheduled')!;
    d.send('ActivityTaskStarted', { scheduledEventId: scheduled.eventId, attempt: 1, identity: 'aw' });
    d.send('ActivityTaskCompleted', { scheduledEventId: scheduled.eventId, attempt: 1, identity: 'aw', result: json('ok') });
    d.completeWorkflowTask([respondFailure('u1')]);
    const reply = replyOf(d, 'r2');
    assert.equal(reply?.kind, 'UpdateResult');
    assert.equal(reply?.failure?.code, 'OutOfStock');
    assert.equal(d.types().at(-1), 'WorkflowExecutionUpdateCompleted');
  });

  it('a repeated update id returns the recorded outcome without new events or tasks', () => {
    const d = idleRun();
    update(d, 'u1', 'r1');
    d.completeWorkflowTask([accept('u1'), respond('u1', 'first')]);
    const events = d.events.length;
    const tasks = d.tasks.length;
    update(d, 'u1', 'r2');
    assert.equal(d.events.length, events);
    assert.equal(d.tasks.length, tasks);
    const reply = replyOf(d, 'r2');
    assert.equal(reply?.kind, 'UpdateResult');
    assert.equal(JSON.parse(reply!.payload!.data.toString()), 'first');
    update(d, 'u2', 'r3');
    d.completeWorkflowTask([accept('u2'), respondFailure('u2')]);
    update(d, 'u2', 'r4');
    assert.equal(replyOf(d, 'r4')?.failure?.code, 'OutOfStock', 'a failed update is answered with the same failure again');
  });

  it('keeps small outcomes of the latest updates only; a repeated id of another is told which event holds its outcome', () => {
    const d = idleRun();
    update(d, 'big', 'r-big');
    d.completeWorkflowTask([accept('big'), respond('big', 'x'.repeat(5000))]);
    const bigCompleted = d.events.at(-1)!;
    update(d, 'big', 'r-big-again');
    const again = replyOf(d, 'r-big-again');
    assert.equal(again?.failure?.code, 'UpdateOutcomeInHistory');
    assert.deepEqual(JSON.parse(again!.failure!.details!.data.toString()), { completedEventId: bigCompleted.eventId });
    for (let i = 0; i < 50; i++) {
      update(d, `u${i}`, `r${i}`);
      d.completeWorkflowTask([accept(`u${i}`), respond(`u${i}`, i)]);
    }
    update(d, 'u0', 'r0-again');
    assert.equal(replyOf(d, 'r0-again')?.failure, null, 'the 50 latest outcomes are kept');
    update(d, `u50`, 'r50');
    d.completeWorkflowTask([accept('u50'), respond('u50', 50)]);
    update(d, 'u0', 'r0-late');
    assert.equal(replyOf(d, 'r0-late')?.failure?.code, 'UpdateOutcomeInHistory', 'older outcomes are read from history');
    assert.equal(d.state!.pendingUpdates.length, 52, 'every completed update keeps a record, for deduplication and the total limit');
  });

  it('keeps at most 20 callers of one update in flight, forgetting the oldest', () => {
    const d = idleRun();
    for (let i = 0; i < 25; i++) update(d, 'u1', `r${i}`);
    assert.equal(d.state!.pendingUpdates.length, 20);
    d.completeWorkflowTask([accept('u1'), respond('u1', 'ok')]);
    const answered = d.last!.replies.map((r) => r.requestId);
    assert.deepEqual(answered, Array.from({ length: 20 }, (_, i) => `r${i + 5}`));
  });

  it('an update admitted while a task is in flight is delivered by a task after it completes', () => {
    const d = new HistoryDriver();
    d.start();
    update(d, 'u1', 'r1');
    assert.deepEqual(d.lastWorkflowTask().messages.map((m) => m.request.updateId), [], 'the first task was sent before the update');
    const sent = d.tasks.length;
    d.completeWorkflowTask([]);
    assert.equal(d.tasks.length, sent + 1);
    assert.deepEqual(d.lastWorkflowTask().messages.map((m) => m.request.updateId), ['u1']);
  });

  it('refuses the 11th update in flight and the update past the per-run total with LimitExceeded', () => {
    const d = idleRun();
    for (let i = 0; i < 10; i++) update(d, `u${i}`, `r${i}`);
    const refused = update(d, 'u10', 'r10');
    assert.equal(refused.rejection?.code, 'LimitExceeded');
    assert.match(refused.rejection!.message, /10 updates in flight/);
    const small = idleRun({ ...defaultHistoryConfig, namespaceLimits: { default: { maxUpdatesPerRun: 1 } } });
    update(small, 'a', 'ra');
    small.completeWorkflowTask([accept('a'), respond('a', 1)]);
    const over = update(small, 'b', 'rb');
    assert.equal(over.rejection?.code, 'LimitExceeded');
    assert.match(over.rejection!.message, /already took 1 updates/);
    assert.equal(replyOf(small, 'rb')?.failure?.code, 'LimitExceeded');
  });

  it('refuses an update to a closed run, and tells callers of updates in flight when the run closes', () => {
    const d = idleRun();
    update(d, 'u1', 'r1');
    d.completeWorkflowTask([accept('u1'), { type: 'CompleteWorkflowExecution', result: json('done') }]);
    const aborted = replyOf(d, 'r1');
    assert.equal(aborted?.failure?.code, 'WorkflowClosed');
    assert.match(aborted!.failure!.message, /workflow execution already completed/);
    const late = update(d, 'u2', 'r2');
    assert.equal(late.rejection?.code, 'WorkflowClosed');
    assert.match(late.rejection!.message, /workflow execution already completed/);
  });

  it('refuses a closing completion while an update admitted during the task is unanswered: UnhandledCommand, and a new task delivers the update', () => {
    const d = new HistoryDriver();
    d.start();
    const { scheduledEventId, attempt } = d.lastWorkflowTask();
    d.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'worker-1' });
    update(d, 'late', 'r1');
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }], false);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed');
    assert.ok(failed?.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'UnhandledCommand');
    assert.match(failed.attributes.failure?.message ?? '', /1 update\(s\)/);
    assert.equal(d.state!.executionInfo.status, 'Running');
    assert.deepEqual(d.lastWorkflowTask().messages.map((m) => m.request.updateId), ['late']);
    d.completeWorkflowTask([accept('late'), respond('late', 'seen'), { type: 'CompleteWorkflowExecution', result: json('done') }]);
    assert.equal(d.state!.executionInfo.status, 'Completed');
    assert.equal(replyOf(d, 'r1')?.kind, 'UpdateResult');
  });

  it('fails the task for a protocol message about an update that is not in flight', () => {
    const d = idleRun();
    update(d, 'u1', 'r1');
    d.completeWorkflowTask([respond('u1', 'too early')]);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed');
    assert.ok(failed?.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'BadUpdateWorkflowExecutionMessage');
  });

  it('update-with-start starts the run and delivers the update with its first task, atomically', () => {
    const d = new HistoryDriver();
    const header = { [UPDATE_WITH_START_HEADER]: encodeUpdateWithStart({ request: request('u1'), waitForStage: 'Completed' }) };
    const t = d.start({ workflowIdConflictPolicy: 'UseExisting', header }, { replyTo: 'r1' });
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
    const started = t.events[0]!;
    assert.ok(started.attributes.type === 'WorkflowExecutionStarted');
    assert.deepEqual(Object.keys(started.attributes.header), [], 'the workflow never sees the carrier header');
    assert.deepEqual(d.lastWorkflowTask().messages.map((m) => m.request.updateId), ['u1']);
    d.completeWorkflowTask([accept('u1'), respond('u1', 'hello')]);
    assert.equal(replyOf(d, 'r1')?.runId, 'run-1');
    const again = d.start({ runId: 'run-2', workflowIdConflictPolicy: 'UseExisting', header: { [UPDATE_WITH_START_HEADER]: encodeUpdateWithStart({ request: request('u2'), waitForStage: 'Completed' }) } }, { replyTo: 'r2' });
    assert.equal(again.events.length, 0, 'the open run is used and the update waits for its speculative task');
    assert.equal(d.state!.executionInfo.runId, 'run-1');
    assert.deepEqual(d.lastWorkflowTask().messages.map((m) => m.request.updateId), ['u2']);
  });

  it('an update or update-with-start whose arguments exceed the payload limit is refused with InvalidArgument, before anything is admitted or started', () => {
    const config: HistoryConfig = { ...defaultHistoryConfig, limits: { ...defaultHistoryConfig.limits, maxPayloadBytes: 1000 } };
    const big = [json('x'.repeat(5000))];
    const d = idleRun(config);
    const refused = d.send('UpdateWorkflowExecution', { request: request('u-big', 'addItem', big), waitForStage: 'Completed' }, { replyTo: 'r1' });
    assert.equal(refused.rejection?.code, 'InvalidArgument');
    assert.match(refused.rejection!.message, /update u-big/);
    assert.deepEqual(d.state!.pendingUpdates, [], 'nothing admitted');
    assert.equal(d.state!.executionInfo.status, 'Running', 'the run goes on');

    const fresh = new HistoryDriver(config);
    const header = { [UPDATE_WITH_START_HEADER]: encodeUpdateWithStart({ request: request('u-big', 'addItem', big), waitForStage: 'Completed' }) };
    const t = fresh.start({ workflowIdConflictPolicy: 'UseExisting', header }, { replyTo: 'r2' });
    assert.equal(t.rejection?.code, 'InvalidArgument');
    assert.equal(fresh.state, null, 'no run was started');
  });
});
