import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import { HistoryDriver, json } from './test-kit.js';

const signalB = (workflowId = 'b'): WorkflowCommand => ({
  type: 'SignalExternalWorkflowExecution', namespace: null, workflowId, runId: null, signalName: 'go', input: [json(7)], childWorkflowOnly: false, header: {},
});
const cancelB: WorkflowCommand = { type: 'RequestCancelExternalWorkflowExecution', namespace: null, workflowId: 'b', runId: null, childWorkflowOnly: false, reason: 'stop' };

/** A started A (which completed its first task with `command`) and a started B waiting for work. */
function pair(command: WorkflowCommand) {
  const a = new HistoryDriver(undefined, 'a');
  const b = new HistoryDriver(undefined, 'b');
  a.start({ runId: 'run-a' });
  b.start({ runId: 'run-b' });
  b.completeWorkflowTask([]);
  a.completeWorkflowTask([command]);
  return { a, b };
}

describe('signals and cancellation requests to other workflows', () => {
  it('records SignalExternalWorkflowExecutionInitiated and sends the signal to the target with a request id derived from the run and event', () => {
    const { a } = pair(signalB());
    assert.deepEqual(a.types().slice(-1), ['SignalExternalWorkflowExecutionInitiated']);
    const initiated = a.events.at(-1)!;
    assert.equal(a.outbox.length, 1);
    const sent = a.outbox[0]!;
    assert.equal(sent.workflowId, 'b');
    assert.equal(sent.requestId, `signal-external:run-a:${initiated.eventId}`);
    assert.ok(sent.body.type === 'SignalWorkflowExecution');
    assert.deepEqual(sent.body.externalInitiator, { namespace: 'default', workflowId: 'a', runId: 'run-a', initiatedEventId: initiated.eventId });
    assert.deepEqual(a.state!.pendingSignalExternals.map((p) => p.initiatedEventId), [initiated.eventId]);
  });

  it('delivers the signal to the target with its initiator and answers the initiator, which records ExternalWorkflowExecutionSignaled and wakes the workflow', () => {
    const { a, b } = pair(signalB());
    b.receive(a.outbox[0]!);
    const signaled = b.events.at(-2)!.attributes;
    assert.deepEqual(b.types().slice(-2), ['WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.ok(signaled.type === 'WorkflowExecutionSignaled');
    assert.equal(signaled.externalInitiator?.workflowId, 'a');
    assert.equal(b.outbox.length, 1);
    const result = b.outbox[0]!;
    assert.equal(result.workflowId, 'a');
    assert.equal(result.runId, 'run-a');
    a.receive(result);
    assert.deepEqual(a.types().slice(-2), ['ExternalWorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.deepEqual(a.state!.pendingSignalExternals, []);
  });

  it('applies a re-sent signal and its re-sent result once (a batch re-applied after a crash)', () => {
    const { a, b } = pair(signalB());
    b.receive(a.outbox[0]!);
    const eventsOfB = b.events.length;
    b.receive(a.outbox[0]!);
    assert.equal(b.events.length, eventsOfB, 'the target drops the duplicate by request id');
    assert.equal(b.outbox.length, 2, 'but answers it again');
    a.receive(b.outbox[0]!);
    const eventsOfA = a.events.length;
    a.receive(b.outbox[1]!);
    assert.equal(a.events.length, eventsOfA, 'the initiator records the outcome once');
  });

  it('records SignalExternalWorkflowExecutionFailed (ExternalWorkflowExecutionNotFound) for a target that does not exist or is closed', () => {
    const { a } = pair(signalB('nobody'));
    const missing = new HistoryDriver(undefined, 'nobody');
    missing.receive(a.outbox[0]!);
    assert.equal(missing.state, null);
    a.receive(missing.outbox[0]!);
    const failed = a.events.at(-2)!.attributes;
    assert.ok(failed.type === 'SignalExternalWorkflowExecutionFailed');
    assert.equal(failed.cause, 'ExternalWorkflowExecutionNotFound');

    const closed = pair(signalB());
    closed.b.send('TerminateWorkflowExecution', { reason: 'done', details: null, identity: 'ops' });
    assert.equal(closed.b.state!.executionInfo.status, 'Terminated');
    closed.b.receive(closed.a.outbox[0]!);
    closed.a.receive(closed.b.outbox[0]!);
    assert.equal(closed.a.events.at(-2)!.attributes.type, 'SignalExternalWorkflowExecutionFailed');
  });

  it('records the cancellation request on the target and ExternalWorkflowExecutionCancelRequested on the initiator', () => {
    const { a, b } = pair(cancelB);
    assert.deepEqual(a.types().slice(-1), ['RequestCancelExternalWorkflowExecutionInitiated']);
    b.receive(a.outbox[0]!);
    const requested = b.events.at(-2)!.attributes;
    assert.ok(requested.type === 'WorkflowExecutionCancelRequested');
    assert.equal(requested.externalInitiator?.workflowId, 'a');
    assert.equal(b.state!.executionInfo.cancelRequested, true);
    a.receive(b.outbox[0]!);
    assert.deepEqual(a.types().slice(-2), ['ExternalWorkflowExecutionCancelRequested', 'WorkflowTaskScheduled']);
    assert.deepEqual(a.state!.pendingCancelExternals, []);
  });

  it('records RequestCancelExternalWorkflowExecutionFailed for a target that does not exist', () => {
    const { a } = pair(cancelB);
    const missing = new HistoryDriver(undefined, 'b');
    missing.receive(a.outbox[0]!);
    a.receive(missing.outbox[0]!);
    const failed = a.events.at(-2)!.attributes;
    assert.ok(failed.type === 'RequestCancelExternalWorkflowExecutionFailed');
    assert.equal(failed.cause, 'ExternalWorkflowExecutionNotFound');
  });
});
