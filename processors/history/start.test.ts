import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prngSeedOf } from './deterministic-seed.js';
import { HistoryDriver, json, startBody, T0 } from './test-kit.js';

function completed(): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('ok') }]);
  return d;
}

function failed(): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: { message: 'no', source: 'sdk', stackTrace: '', code: 'E', nonRetryable: false, details: null, cause: null } }]);
  return d;
}

describe('starting a workflow', () => {
  it('writes WorkflowExecutionStarted with a seed derived from the run id, schedules the first task and answers StartAccepted', () => {
    const d = new HistoryDriver();
    const t = d.start({ workflowTaskTimeoutMs: 5000, searchAttributes: { Tier: { type: 'Keyword', value: 'gold' } } }, { replyTo: 'gw-1', requestId: 'start-1' });
    const started = t.events[0]!.attributes;
    assert.ok(started.type === 'WorkflowExecutionStarted');
    assert.deepEqual(
      [started.requestId, started.prngSeed, started.firstExecutionRunId, started.originalExecutionRunId, started.workflowTaskTimeoutMs, started.attempt],
      ['start-1', prngSeedOf('run-1'), 'run-1', 'run-1', 5000, 1],
    );
    assert.ok(Number.isSafeInteger(started.prngSeed) && started.prngSeed >= 0);
    assert.notEqual(prngSeedOf('run-1'), prngSeedOf('run-2'));
    assert.deepEqual(t.replies, [{ requestId: 'gw-1', kind: 'StartAccepted', runId: 'run-1', payload: null, failure: null, executionStatus: null }]);
    assert.deepEqual([t.visibility?.status, t.visibility?.startTime, t.visibility?.searchAttributes], ['Running', T0, { Tier: { type: 'Keyword', value: 'gold' } }]);
    assert.equal(t.state!.startRequestId, 'start-1');
  });

  it('answers a repeated start request with the existing run and changes nothing', () => {
    const d = new HistoryDriver();
    d.start({}, { requestId: 'start-1' });
    for (let i = 0; i < 3; i++) d.send('SignalWorkflowExecution', { signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    const again = d.start({ runId: 'run-2' }, { requestId: 'start-1', replyTo: 'gw-2' });
    assert.deepEqual([again.changed, again.events, again.rejection], [false, [], null]);
    assert.deepEqual([again.replies[0]?.kind, again.replies[0]?.runId], ['StartAccepted', 'run-1']);
  });

  it('applies the conflict policy to a running workflow: Fail, UseExisting, TerminateExisting', () => {
    const fail = new HistoryDriver();
    fail.start();
    const refused = fail.start({ runId: 'run-2' }, { replyTo: 'gw' });
    assert.equal(refused.rejection?.code, 'WorkflowExecutionAlreadyStarted');
    assert.deepEqual([refused.replies[0]?.kind, refused.replies[0]?.failure?.code], ['Error', 'WorkflowExecutionAlreadyStarted']);

    const use = new HistoryDriver();
    use.start();
    const existing = use.start({ runId: 'run-2', workflowIdConflictPolicy: 'UseExisting' }, { replyTo: 'gw' });
    assert.deepEqual([existing.changed, existing.rejection, existing.replies[0]?.kind, existing.replies[0]?.runId], [false, null, 'AlreadyStarted', 'run-1']);

    const terminate = new HistoryDriver();
    terminate.start();
    terminate.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'gw-wait' });
    const replaced = terminate.start({ runId: 'run-2', workflowIdConflictPolicy: 'TerminateExisting' }, { replyTo: 'gw' });
    assert.deepEqual(replaced.events.map((e) => [e.runId, e.eventId, e.attributes.type]), [
      ['run-1', 3, 'WorkflowExecutionTerminated'],
      ['run-2', 1, 'WorkflowExecutionStarted'],
      ['run-2', 2, 'WorkflowTaskScheduled'],
    ]);
    assert.deepEqual([replaced.closedRun?.state.executionInfo.status, replaced.closedRun?.visibility.status], ['Terminated', 'Terminated']);
    assert.deepEqual([replaced.state?.executionInfo.runId, replaced.visibility?.runId], ['run-2', 'run-2']);
    assert.deepEqual(replaced.replies.map((r) => [r.requestId, r.kind, r.runId, r.executionStatus]), [
      ['gw-wait', 'Result', 'run-1', 'Terminated'],
      ['gw', 'StartAccepted', 'run-2', null],
    ]);
  });

  it('applies the reuse policy to a closed workflow: AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate', () => {
    const allow = completed().start({ runId: 'run-2', workflowIdReusePolicy: 'AllowDuplicate' });
    assert.equal(allow.state?.executionInfo.runId, 'run-2');
    assert.deepEqual(allow.events.map((e) => e.eventId), [1, 2]);

    const onlyFailed = completed().start({ runId: 'run-2', workflowIdReusePolicy: 'AllowDuplicateFailedOnly' });
    assert.equal(onlyFailed.rejection?.code, 'WorkflowExecutionAlreadyStarted');
    const afterFailure = failed().start({ runId: 'run-2', workflowIdReusePolicy: 'AllowDuplicateFailedOnly' });
    assert.equal(afterFailure.state?.executionInfo.runId, 'run-2');

    const reject = failed().start({ runId: 'run-2', workflowIdReusePolicy: 'RejectDuplicate' });
    assert.equal(reject.rejection?.code, 'WorkflowExecutionAlreadyStarted');
  });

  it('refuses starts with missing fields or an invalid cron schedule as invalid', () => {
    assert.equal(new HistoryDriver().start({ cronSchedule: '61 * * * *' }).rejection?.code, 'InvalidArgument');
    assert.equal(new HistoryDriver().start({ taskQueue: '' }).rejection?.code, 'InvalidArgument');
  });
});

describe('signal with start', () => {
  it('starts a new run with the signal before its first workflow task', () => {
    const d = new HistoryDriver();
    const t = d.send('SignalWithStartWorkflowExecution', { start: startBody({ workflowIdConflictPolicy: 'UseExisting' }), signalName: 'add', signalInput: [json(1)], signalHeader: {} }, { replyTo: 'gw' });
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.equal(t.replies[0]?.kind, 'StartAccepted');
  });

  it('signals the running run, deduplicated by request id', () => {
    const d = new HistoryDriver();
    d.start();
    const body = { start: startBody({ runId: 'run-2', workflowIdConflictPolicy: 'UseExisting' }), signalName: 'add', signalInput: [json(1)], signalHeader: {} };
    const t = d.send('SignalWithStartWorkflowExecution', body, { replyTo: 'gw', requestId: 'sws-1' });
    assert.deepEqual([t.replies[0]?.kind, t.replies[0]?.runId], ['AlreadyStarted', 'run-1']);
    assert.equal(d.state!.bufferedEvents.length, 1);
    const again = d.send('SignalWithStartWorkflowExecution', body, { replyTo: 'gw', requestId: 'sws-1' });
    assert.deepEqual([again.changed, again.replies[0]?.kind], [false, 'AlreadyStarted']);
  });
});

describe('addressing', () => {
  it('refuses commands for an unknown workflow or another run', () => {
    const unknown = new HistoryDriver().send('SignalWorkflowExecution', { signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false }, { replyTo: 'gw' });
    assert.deepEqual([unknown.rejection?.code, unknown.replies[0]?.kind], ['WorkflowNotFound', 'Error']);
    const d = new HistoryDriver();
    d.start();
    const other = d.send('TerminateWorkflowExecution', { reason: 'x', details: null, identity: 'ops' }, { runId: 'run-0' });
    assert.equal(other.rejection?.code, 'RunNotFound');
    const update = d.send('UpdateWorkflowExecution', { request: { updateId: 'u', identity: 'c', name: 'n', header: {}, args: [] }, waitForStage: 'Completed' }, { runId: 'run-0' });
    assert.equal(update.rejection?.code, 'RunNotFound');
  });
});
