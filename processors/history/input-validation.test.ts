import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command, StartWorkflowExecutionRequest, WorkflowCommand } from '../../topics/schemas/command/index.js';
import { applyCommand } from './apply-command.js';
import { HistoryDriver, json, scheduleActivity, startBody, T0 } from './test-kit.js';
import { encodeUpdateWithStart, UPDATE_WITH_START_HEADER } from '../../topics/schemas/command/update-with-start-header.js';

/** A start command as a raw producer could write it: any namespace, any fields. */
function rawStart(namespace: string, overrides: Partial<StartWorkflowExecutionRequest> = {}, workflowId = 'w1'): Command {
  return { requestId: 'req-1', namespace, workflowId, runId: null, replyTo: { gatewayId: 'gw', requestId: 'r1' }, body: { type: 'StartWorkflowExecution', ...startBody(overrides) } };
}

/** Asserts a refusal with InvalidArgument whose message matches, answered to the caller, with nothing written. */
function assertRefused(transition: ReturnType<typeof applyCommand>, message: RegExp): void {
  assert.equal(transition.rejection?.code, 'InvalidArgument');
  assert.match(transition.rejection?.message ?? '', message);
  assert.deepEqual([transition.changed, transition.events.length, transition.tasks.length], [false, 0, 0]);
  assert.deepEqual([transition.replies[0]?.kind, transition.replies[0]?.failure?.code], ['Error', 'InvalidArgument']);
}

/** The WorkflowTaskFailed a completion with `command` wrote, the run still running and nothing else scheduled. */
function failedTask(command: WorkflowCommand): { cause: string; message: string; driver: HistoryDriver } {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([command]);
  const failed = d.events.at(-1)!.attributes;
  assert.ok(failed.type === 'WorkflowTaskFailed', `expected WorkflowTaskFailed, got ${failed.type}`);
  assert.equal(d.state!.executionInfo.status, 'Running');
  assert.deepEqual([d.state!.pendingActivities, d.state!.pendingTimers, d.state!.pendingChildren, d.outbox], [[], [], [], []]);
  return { cause: failed.cause, message: failed.failure?.message ?? '', driver: d };
}

describe('the state machine trusts no name it reads from a topic', () => {
  it('refuses a start in namespace a.b or ../../etc, or on task queue ../../q, with InvalidArgument naming the rule', () => {
    assertRefused(applyCommand(null, rawStart('a.b'), T0), /^namespace 'a\.b' may contain only letters, digits, '_' and '-' \(it is part of a topic name\)$/);
    assertRefused(applyCommand(null, rawStart('../../etc'), T0), /^namespace '\.\.\/\.\.\/etc' may contain only letters/);
    assertRefused(applyCommand(null, rawStart('default', { taskQueue: '../../q' }), T0), /^taskQueue '\.\.\/\.\.\/q' may contain only letters/);
    assertRefused(applyCommand(null, rawStart('n'.repeat(65)), T0), /is 65 characters long; at most 64 are allowed/);
  });

  it('refuses a start with a bad workflow id, type or run id, a policy that is not one, or a timeout past 100 years', () => {
    assertRefused(applyCommand(null, rawStart('default', {}, 'a\u0000b'), T0), /^workflowId .* control character U\+0000/);
    assertRefused(applyCommand(null, rawStart('default', { workflowType: 't'.repeat(1001) }), T0), /^workflowType .* 1001 bytes long/);
    assertRefused(applyCommand(null, rawStart('default', { runId: 'r\n' }), T0), /^runId .* control character U\+000A/);
    assertRefused(applyCommand(null, rawStart('default', { workflowIdConflictPolicy: 'bogus' as never }), T0), /^workflowIdConflictPolicy must be one of Fail, UseExisting, TerminateExisting, got "bogus"$/);
    assertRefused(applyCommand(null, rawStart('default', { workflowExecutionTimeoutMs: 1_000_000_000 * 86_400_000 }), T0), /^workflowExecutionTimeoutMs must be a whole number of milliseconds from 0 to 3155760000000 \(100 years\)/);
  });

  it('refuses the same in a signal-with-start, and a signal-with-start whose signal name has a control character', () => {
    const signalWithStart = (namespace: string, signalName: string): Command => ({
      requestId: 'req-1', namespace, workflowId: 'w1', runId: null, replyTo: { gatewayId: 'gw', requestId: 'r1' },
      body: { type: 'SignalWithStartWorkflowExecution', start: startBody(), signalName, signalInput: [], signalHeader: {} },
    });
    assertRefused(applyCommand(null, signalWithStart('a.b', 'go'), T0), /^namespace 'a\.b'/);
    assertRefused(applyCommand(null, signalWithStart('default', 'go\r'), T0), /^signalName .* control character U\+000D/);
  });

  it('refuses an update-with-start on task queue ../../q, or whose update name has a control character, and starts nothing', () => {
    const carrying = (name: string, taskQueue = 'orders') => {
      const header = { [UPDATE_WITH_START_HEADER]: encodeUpdateWithStart({ request: { updateId: 'u1', identity: 'c', name, header: {}, args: [] }, waitForStage: 'Completed' }) };
      return rawStart('default', { taskQueue, workflowIdConflictPolicy: 'UseExisting', header });
    };
    assertRefused(applyCommand(null, carrying('addItem', '../../q'), T0), /^taskQueue '\.\.\/\.\.\/q'/);
    assertRefused(applyCommand(null, carrying('add\u007fItem'), T0), /^update name .* control character U\+007F/);
  });

  it('refuses a signal or an update to a running run whose name or id breaks the rule', () => {
    const d = new HistoryDriver();
    d.start();
    const signal = d.send('SignalWorkflowExecution', { signalName: 'x'.repeat(1001), input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false }, { replyTo: 's' });
    assertRefused(signal, /^signalName .* 1001 bytes long/);
    const update = d.send('UpdateWorkflowExecution', { request: { updateId: 'u\n1', identity: 'c', name: 'add', header: {}, args: [] }, waitForStage: 'Completed' }, { replyTo: 'u' });
    assertRefused(update, /^updateId .* control character U\+000A/);
    assert.deepEqual([d.state!.signalCount, d.state!.pendingUpdates], [0, []]);
  });
});

describe('workflow commands with names or durations no client may send fail the workflow task with their Bad…Attributes cause', () => {
  it('an activity on task queue ../../q', () => {
    const { cause, message } = failedTask(scheduleActivity('pay', { taskQueue: '../../q' }));
    assert.equal(cause, 'BadScheduleActivityAttributes');
    assert.match(message, /^ScheduleActivityTask: taskQueue '\.\.\/\.\.\/q' may contain only letters, digits, '_' and '-'/);
  });

  it('an activity whose timeout is fractional or past 100 years', () => {
    assert.match(failedTask(scheduleActivity('pay', { startToCloseTimeoutMs: 1.5 })).message, /startToCloseTimeoutMs must be a whole number of milliseconds/);
    assert.match(failedTask(scheduleActivity('pay', { heartbeatTimeoutMs: 4e15 })).message, /heartbeatTimeoutMs must be a whole number/);
  });

  it('a child in namespace a.b or on task queue x y', () => {
    const child = (overrides: Partial<Extract<WorkflowCommand, { type: 'StartChildWorkflowExecution' }>>): WorkflowCommand => ({
      type: 'StartChildWorkflowExecution', namespace: null, workflowId: 'child', workflowType: 'invoice', taskQueue: null, input: [json(1)],
      workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy: 'Terminate',
      workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {}, ...overrides,
    });
    const inNamespace = failedTask(child({ namespace: 'a.b' }));
    assert.deepEqual([inNamespace.cause, /^StartChildWorkflowExecution: namespace 'a\.b'/.test(inNamespace.message)], ['BadStartChildExecutionAttributes', true]);
    const onQueue = failedTask(child({ taskQueue: 'x y' }));
    assert.deepEqual([onQueue.cause, /^StartChildWorkflowExecution: taskQueue 'x y'/.test(onQueue.message)], ['BadStartChildExecutionAttributes', true]);
  });

  it('a continue-as-new onto task queue a.b', () => {
    const { cause, message, driver } = failedTask({
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: 'a.b', input: [], workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null,
      backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    });
    assert.equal(cause, 'BadContinueAsNewAttributes');
    assert.match(message, /^ContinueAsNewWorkflowExecution: taskQueue 'a\.b'/);
    assert.equal(driver.state!.executionInfo.runId, 'run-1', 'no new run');
  });

  it('a timer of 10^18 ms, and a signal to a workflow in namespace ../x', () => {
    const timer = failedTask({ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1e18 });
    assert.deepEqual([timer.cause, /^StartTimer: startToFireTimeoutMs must be a whole number/.test(timer.message)], ['BadStartTimerAttributes', true]);
    const signal = failedTask({ type: 'SignalExternalWorkflowExecution', namespace: '../x', workflowId: 'w', runId: null, signalName: 's', input: [], childWorkflowOnly: false, header: {} });
    assert.deepEqual([signal.cause, /^SignalExternalWorkflowExecution: namespace '\.\.\/x'/.test(signal.message)], ['BadSignalWorkflowExecutionAttributes', true]);
  });

  it('an activity on its own task queue, or one named like the rule allows, is scheduled as before', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([scheduleActivity('a', { taskQueue: null }), scheduleActivity('b', { taskQueue: 'payments_eu-1' })]);
    assert.deepEqual(d.state!.pendingActivities.map((a) => a.taskQueue), ['orders', 'payments_eu-1']);
  });
});
