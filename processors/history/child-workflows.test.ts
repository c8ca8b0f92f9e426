import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command, WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { ParentClosePolicy } from '../../topics/schemas/common/v1-enums.js';
import { defaultHistoryConfig } from './config.js';
import { childRunIdOf } from './deterministic-seed.js';
import { failure, HistoryDriver, json, retryPolicy } from './test-kit.js';

const startChild = (workflowId = 'child', parentClosePolicy: ParentClosePolicy = 'Terminate'): Extract<WorkflowCommand, { type: 'StartChildWorkflowExecution' }> => ({
  type: 'StartChildWorkflowExecution', namespace: null, workflowId, workflowType: 'invoice', taskQueue: null, input: [json(1)],
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy,
  workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {},
});

/** A parent whose first task started a child, and the child's driver (not started yet). */
function parentWithChild(policy: ParentClosePolicy = 'Terminate') {
  const parent = new HistoryDriver(undefined, 'parent');
  const child = new HistoryDriver(undefined, 'child');
  parent.start({ runId: 'run-p' });
  parent.completeWorkflowTask([startChild('child', policy)]);
  return { parent, child, start: parent.outbox[0]! };
}

/** The parent after its child started and the parent's task for it completed. */
function startedChild(policy: ParentClosePolicy = 'Terminate') {
  const pair = parentWithChild(policy);
  pair.child.receive(pair.start);
  pair.parent.receive(pair.child.outbox[0]!);
  pair.parent.completeWorkflowTask([]);
  return pair;
}

const bodyOf = (command: Command) => command.body;

/** Gives the parent a new workflow task (a signal), so it can complete again. */
function wake(parent: HistoryDriver): void {
  parent.send('SignalWorkflowExecution', { signalName: 'poke', input: [], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false });
}

describe('child workflows', () => {
  it('records StartChildWorkflowExecutionInitiated and sends the start with ids derived from the parent run and event', () => {
    const { parent, start } = parentWithChild();
    const initiated = parent.events.at(-1)!;
    assert.equal(initiated.attributes.type, 'StartChildWorkflowExecutionInitiated');
    assert.equal(start.workflowId, 'child');
    assert.equal(start.requestId, `start-child:run-p:${initiated.eventId}`);
    const body = bodyOf(start);
    assert.ok(body.type === 'StartWorkflowExecution');
    assert.equal(body.runId, childRunIdOf('run-p', initiated.eventId));
    assert.equal(body.taskQueue, 'orders', 'a null task queue is the parent\'s');
    assert.deepEqual(body.parent, { namespace: 'default', workflowId: 'parent', runId: 'run-p', initiatedEventId: initiated.eventId });
    assert.deepEqual(parent.state!.pendingChildren.map((c) => [c.initiatedEventId, c.runId]), [[initiated.eventId, null]]);
  });

  it('starts the child with its parent recorded, and the parent records ChildWorkflowExecutionStarted and wakes', () => {
    const { parent, child, start } = parentWithChild();
    child.receive(start);
    const started = child.events[0]!.attributes;
    assert.ok(started.type === 'WorkflowExecutionStarted');
    assert.equal(started.parent?.workflowId, 'parent');
    assert.equal(child.state!.executionInfo.parent?.runId, 'run-p');
    const answer = child.outbox[0]!;
    assert.equal(answer.body.type, 'RecordChildExecutionStarted');
    assert.equal(answer.runId, 'run-p');
    parent.receive(answer);
    assert.deepEqual(parent.types().slice(-2), ['ChildWorkflowExecutionStarted', 'WorkflowTaskScheduled']);
    const pending = parent.state!.pendingChildren[0]!;
    assert.equal(pending.runId, child.state!.executionInfo.runId);
    assert.equal(pending.startedEventId, parent.events.at(-2)!.eventId);
  });

  it('tells the parent when the child completes: ChildWorkflowExecutionCompleted with the result and the started event id', () => {
    const { parent, child } = startedChild();
    const startedEventId = parent.state!.pendingChildren[0]!.startedEventId;
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }]);
    const notice = child.outbox.at(-1)!;
    assert.equal(notice.requestId, `child-closed:${child.state!.executionInfo.runId}`);
    parent.receive(notice);
    const completed = parent.events.at(-2)!.attributes;
    assert.ok(completed.type === 'ChildWorkflowExecutionCompleted');
    assert.deepEqual(completed.result, json('done'));
    assert.equal(completed.startedEventId, startedEventId);
    assert.deepEqual(parent.state!.pendingChildren, []);
  });

  it('records a failed child as ChildWorkflowExecutionFailed with its failure', () => {
    const { parent, child } = startedChild();
    child.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('InvoiceRejected', true) }]);
    parent.receive(child.outbox.at(-1)!);
    const failed = parent.events.at(-2)!.attributes;
    assert.ok(failed.type === 'ChildWorkflowExecutionFailed');
    assert.equal(failed.failure.code, 'InvoiceRejected');
  });

  it('answers a start whose workflow id is running with StartFailed(WorkflowAlreadyExists); the parent records StartChildWorkflowExecutionFailed', () => {
    const { parent, child, start } = parentWithChild();
    child.start({ runId: 'someone-else' });
    child.receive(start);
    assert.equal(child.state!.executionInfo.runId, 'someone-else');
    const answer = child.outbox.at(-1)!;
    assert.ok(answer.body.type === 'RecordChildExecutionStartFailed');
    assert.equal(answer.body.cause, 'WorkflowAlreadyExists');
    parent.receive(answer);
    assert.deepEqual(parent.types().slice(-2), ['StartChildWorkflowExecutionFailed', 'WorkflowTaskScheduled']);
    assert.deepEqual(parent.state!.pendingChildren, []);
  });

  it('applies a re-sent start and re-sent answers once (a batch re-applied after a crash)', () => {
    const { parent, child, start } = parentWithChild();
    child.receive(start);
    const childEvents = child.events.length;
    child.receive(start);
    assert.equal(child.events.length, childEvents, 'the child\'s shard recognises the start');
    assert.equal(child.outbox.length, 2, 'and answers it again');
    parent.receive(child.outbox[0]!);
    const parentEvents = parent.events.length;
    parent.receive(child.outbox[1]!);
    assert.equal(parent.events.length, parentEvents);
  });

  it('buffers the child\'s Started and closed events behind a workflow task in flight and resolves the started event id when they are appended', () => {
    const { parent, child, start } = parentWithChild();
    parent.send('SignalWorkflowExecution', { signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    const { scheduledEventId, attempt } = parent.lastWorkflowTask();
    parent.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'w' });
    child.receive(start);
    parent.receive(child.outbox[0]!);
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json(2) }]);
    parent.receive(child.outbox.at(-1)!);
    assert.equal(parent.state!.bufferedEvents.length, 2);
    parent.send('WorkflowTaskCompleted', { scheduledEventId, attempt, identity: 'w', commands: [], sdkFlags: [], sdkName: null, sdkVersion: null });
    const started = parent.events.find((e) => e.attributes.type === 'ChildWorkflowExecutionStarted')!;
    const completed = parent.events.find((e) => e.attributes.type === 'ChildWorkflowExecutionCompleted')!.attributes;
    assert.ok(completed.type === 'ChildWorkflowExecutionCompleted');
    assert.equal(completed.startedEventId, started.eventId);
  });

  it('follows a child that continues as new: the parent hears from the chain\'s last run', () => {
    const { parent, child } = startedChild();
    child.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'invoice', taskQueue: null, input: [], workflowRunTimeoutMs: null,
      workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    }]);
    assert.equal(child.outbox.length, 1, 'continuing as new tells the parent nothing');
    const lastRun = child.state!.executionInfo.runId;
    assert.equal(child.state!.executionInfo.parent?.runId, 'run-p');
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('last') }]);
    parent.receive(child.outbox.at(-1)!);
    const completed = parent.events.at(-2)!.attributes;
    assert.ok(completed.type === 'ChildWorkflowExecutionCompleted');
    assert.equal(completed.workflowExecution.runId, lastRun);
    assert.deepEqual(completed.result, json('last'));
  });

  it('follows a child retried by its retry policy: the failed attempt tells the parent nothing, the next attempt stays its child and its result reaches the parent', () => {
    const parent = new HistoryDriver(undefined, 'parent');
    const child = new HistoryDriver(undefined, 'child');
    parent.start({ runId: 'run-p' });
    parent.completeWorkflowTask([{ ...startChild(), retryPolicy: retryPolicy({ initialIntervalMs: 1000, maximumAttempts: 2 }) }]);
    child.receive(parent.outbox[0]!);
    parent.receive(child.outbox[0]!);
    parent.completeWorkflowTask([]);
    child.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('InvoiceRejected') }]);
    assert.equal(child.outbox.length, 1, 'a retried attempt tells the parent nothing');
    assert.equal(child.state!.executionInfo.attempt, 2);
    assert.equal(child.state!.executionInfo.parent?.runId, 'run-p', 'the next attempt is still the parent\'s child');
    child.advance(1000);
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('second try') }]);
    parent.receive(child.outbox.at(-1)!);
    const completed = parent.events.at(-2)!.attributes;
    assert.ok(completed.type === 'ChildWorkflowExecutionCompleted');
    assert.deepEqual(completed.result, json('second try'));
  });

  it('tells the parent why a failed child was not retried: the retryState its WorkflowExecutionFailed records', () => {
    const parent = new HistoryDriver(undefined, 'parent');
    const child = new HistoryDriver(undefined, 'child');
    parent.start({ runId: 'run-p' });
    parent.completeWorkflowTask([{ ...startChild(), retryPolicy: retryPolicy({ maximumAttempts: 1 }) }]);
    child.receive(parent.outbox[0]!);
    parent.receive(child.outbox[0]!);
    parent.completeWorkflowTask([]);
    child.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('InvoiceRejected') }]);
    const closing = child.events.at(-1)!.attributes;
    assert.ok(closing.type === 'WorkflowExecutionFailed');
    assert.equal(closing.retryState, 'MaximumAttemptsReached');
    parent.receive(child.outbox.at(-1)!);
    const failed = parent.events.at(-2)!.attributes;
    assert.ok(failed.type === 'ChildWorkflowExecutionFailed');
    assert.equal(failed.retryState, 'MaximumAttemptsReached');
  });

  it('applies the parent close policies when the parent closes: Terminate and RequestCancel reach the child, Abandon sends nothing', () => {
    const parent = new HistoryDriver(undefined, 'parent');
    parent.start({ runId: 'run-p' });
    parent.completeWorkflowTask([startChild('t', 'Terminate'), startChild('r', 'RequestCancel'), startChild('a', 'Abandon')]);
    const starts = parent.outbox.length;
    wake(parent);
    parent.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    const sent = parent.outbox.slice(starts);
    assert.deepEqual(sent.map((c) => [c.workflowId, c.body.type]), [['t', 'TerminateWorkflowExecution'], ['r', 'RequestCancelWorkflowExecution']]);
    const cancel = sent[1]!.body;
    assert.ok(cancel.type === 'RequestCancelWorkflowExecution');
    assert.equal(cancel.childWorkflowOnly, true);
    assert.deepEqual(parent.state!.pendingChildren, []);
  });

  it('terminates a child under Terminate; its notice to the closed parent is dropped quietly', () => {
    const { parent, child } = startedChild('Terminate');
    wake(parent);
    parent.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    child.receive(parent.outbox.at(-1)!);
    assert.equal(child.state!.executionInfo.status, 'Terminated');
    const notice = parent.receive(child.outbox.at(-1)!);
    assert.equal(notice.rejection, null);
    assert.equal(notice.events.length, 0);
  });

  it('terminates a child that continued as new in its current run under Terminate', () => {
    const { parent, child } = startedChild('Terminate');
    child.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'invoice', taskQueue: null, input: [], workflowRunTimeoutMs: null,
      workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    }]);
    wake(parent);
    parent.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    child.receive(parent.outbox.at(-1)!);
    assert.equal(child.state!.executionInfo.status, 'Terminated');
  });

  it('leaves alone a run that took the child\'s workflow id after the child ended, though the parent did not hear of the end yet', () => {
    const { parent, child } = startedChild('Terminate');
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    child.start({ runId: 'someone-else' });
    wake(parent);
    parent.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    const terminate = parent.outbox.at(-1)!;
    assert.equal(terminate.body.type, 'TerminateWorkflowExecution');
    assert.equal(child.receive(terminate).rejection?.code, 'StaleChildMessage');
    assert.equal(child.state!.executionInfo.status, 'Running');
    assert.equal(child.state!.executionInfo.runId, 'someone-else');
  });

  it('drops a child\'s notice to a parent that continued as new as stale (not dead-lettered)', () => {
    const { parent, child } = startedChild('Abandon');
    wake(parent);
    parent.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [], workflowRunTimeoutMs: null,
      workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    }]);
    child.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: null }]);
    assert.equal(parent.receive(child.outbox.at(-1)!).rejection?.code, 'StaleChildMessage');
  });

  it('refuses a childWorkflowOnly cancellation from a run that is not the target\'s parent, and answers the sender not found', () => {
    const { child } = startedChild();
    const from = { namespace: 'default', workflowId: 'stranger', runId: 'run-s', initiatedEventId: 5 };
    const t = child.send('RequestCancelWorkflowExecution', { identity: 'x', reason: '', externalInitiator: from, childWorkflowOnly: true });
    assert.equal(t.rejection?.code, 'WorkflowNotFound');
    const answer = child.outbox.at(-1)!.body;
    assert.ok(answer.type === 'RecordRequestCancelExternalWorkflowExecutionResult');
    assert.equal(answer.failureCause, 'ExternalWorkflowExecutionNotFound');
    assert.equal(child.state!.executionInfo.cancelRequested, false);
  });

  it('fails the workflow task past the pending-children limit (namespace-configurable), naming PendingChildWorkflowsLimitExceeded', () => {
    const config = { ...defaultHistoryConfig, namespaceLimits: { default: { maxPendingChildWorkflows: 2 } } };
    const parent = new HistoryDriver(config, 'parent');
    parent.start({ runId: 'run-p' });
    parent.completeWorkflowTask([startChild('c1'), startChild('c2'), startChild('c3')]);
    const failed = parent.events.at(-1)!.attributes;
    assert.equal(failed.type, 'WorkflowTaskFailed');
    assert.ok(failed.type === 'WorkflowTaskFailed');
    assert.equal(failed.cause, 'BadStartChildExecutionAttributes');
    assert.equal(failed.failure?.code, 'PendingChildWorkflowsLimitExceeded');
    assert.deepEqual(parent.state!.pendingChildren, []);
  });
});
