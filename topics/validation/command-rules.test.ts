import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command, StartWorkflowExecutionRequest, WorkflowCommand } from '../schemas/command/index.js';
import { commandProblem, startRequestProblem, workflowCommandProblem } from './command-rules.js';
import { assertValid, InvalidArgumentError } from './invalid-argument-error.js';
import { durationProblem, MAX_DURATION_MS, oneOfProblem, waitProblem } from './value-rules.js';

const start: StartWorkflowExecutionRequest = {
  runId: 'r1', workflowType: 'order', taskQueue: 'orders', input: [], identity: 'test',
  workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: 'AllowDuplicate',
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null,
  retryPolicy: null, cronSchedule: null, workflowStartDelayMs: null, memo: {}, searchAttributes: {}, header: {}, parent: null,
};

const command = (body: Command['body'], envelope: Partial<Command> = {}): Command =>
  ({ requestId: 'q1', namespace: 'default', workflowId: 'w1', runId: null, replyTo: null, body, ...envelope }) as Command;

test('a duration is whole milliseconds from 0 to 100 years; a larger, negative or fractional one is refused naming the field', () => {
  assert.equal(MAX_DURATION_MS, 3_155_760_000_000);
  assert.equal(durationProblem(0, 't'), null);
  assert.equal(durationProblem(MAX_DURATION_MS, 't'), null);
  assert.match(durationProblem(1_000_000_000 * 86_400_000, 'workflowExecutionTimeoutMs') ?? '', /^workflowExecutionTimeoutMs must be a whole number of milliseconds from 0 to 3155760000000 \(100 years\), got 86400000000000000$/);
  assert.match(durationProblem(1.5, 'startToCloseTimeoutMs') ?? '', /got 1\.5/);
  assert.match(durationProblem(-1, 't') ?? '', /got -1/);
  assert.match(durationProblem(Number.NaN, 't') ?? '', /got NaN/);
});

test('a wait is at most one hour and a policy is one of its values, each refusal naming the allowed range or values', () => {
  assert.equal(waitProblem(3_600_000, 'timeout'), null);
  assert.match(waitProblem(99_999 * 3_600_000, 'timeout') ?? '', /^timeout must be a wait from 0 to 1h \(3600000 ms\), got 359996400000 ms; ask again to wait longer$/);
  assert.equal(oneOfProblem('bogus', 'workflowIdConflictPolicy', ['Fail', 'UseExisting']), 'workflowIdConflictPolicy must be one of Fail, UseExisting, got "bogus"');
});

test('a start is checked for its namespace, ids, type, task queue, policies, durations and retry bounds', () => {
  assert.equal(startRequestProblem('default', 'w1', start), null);
  assert.match(startRequestProblem('a.b', 'w1', start) ?? '', /^namespace 'a\.b' may contain only/);
  assert.match(startRequestProblem('default', 'w1', { ...start, taskQueue: '../../q' }) ?? '', /^taskQueue '\.\.\/\.\.\/q'/);
  assert.match(startRequestProblem('default', '', start) ?? '', /^workflowId must be a non-empty string/);
  assert.match(startRequestProblem('default', 'w1', { ...start, workflowType: 'a\u0000' }) ?? '', /^workflowType .* control character U\+0000/);
  assert.match(startRequestProblem('default', 'w1', { ...start, workflowIdConflictPolicy: 'bogus' as never }) ?? '', /^workflowIdConflictPolicy must be one of Fail, UseExisting, TerminateExisting, got "bogus"$/);
  assert.match(startRequestProblem('default', 'w1', { ...start, workflowRunTimeoutMs: 1e17 }) ?? '', /^workflowRunTimeoutMs must be a whole number/);
  const retryPolicy = { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: null, maximumAttempts: 2 ** 31, nonRetryableErrorTypes: [] };
  assert.match(startRequestProblem('default', 'w1', { ...start, retryPolicy }) ?? '', /^retryPolicy\.maximumAttempts must be a whole number from 0 to 2147483647/);
});

test('workflow commands are checked for the names, queues and durations they carry, the message naming the command', () => {
  const activity: WorkflowCommand = {
    type: 'ScheduleActivityTask', activityId: '1', activityType: 'charge', taskQueue: null, header: {}, input: [],
    scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 10_000, heartbeatTimeoutMs: null, retryPolicy: null,
  };
  assert.equal(workflowCommandProblem(activity), null);
  assert.equal(workflowCommandProblem({ ...activity, taskQueue: '' }), null, "an empty task queue is the run's own");
  assert.match(workflowCommandProblem({ ...activity, taskQueue: '../../q' }) ?? '', /^ScheduleActivityTask: taskQueue '\.\.\/\.\.\/q' may contain only/);
  assert.match(workflowCommandProblem({ ...activity, startToCloseTimeoutMs: 1.5 }) ?? '', /^ScheduleActivityTask: startToCloseTimeoutMs must be a whole number/);
  assert.match(workflowCommandProblem({ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1e18 }) ?? '', /^StartTimer: startToFireTimeoutMs/);
  const signal: WorkflowCommand = { type: 'SignalExternalWorkflowExecution', namespace: 'a.b', workflowId: 'w', runId: null, signalName: 's', input: [], childWorkflowOnly: false, header: {} };
  assert.match(workflowCommandProblem(signal) ?? '', /^SignalExternalWorkflowExecution: namespace 'a\.b'/);
  assert.equal(workflowCommandProblem({ type: 'CompleteWorkflowExecution', result: null }), null);
});

test('a whole command is checked for its target and request id, then its body; assertValid throws INVALID_ARGUMENT with the message', () => {
  const signal = { type: 'SignalWorkflowExecution' as const, signalName: 'go', input: [], identity: 'x', header: {}, externalInitiator: null, childWorkflowOnly: false };
  assert.equal(commandProblem(command(signal)), null);
  assert.match(commandProblem(command(signal, { namespace: '..%2F..%2Fetc' })) ?? '', /^namespace '\.\.%2F\.\.%2Fetc' may contain only/);
  assert.match(commandProblem(command(signal, { requestId: '' })) ?? '', /^requestId must be a non-empty string/);
  assert.match(commandProblem(command({ ...signal, signalName: '' })) ?? '', /^signalName must be a non-empty string/);
  assert.match(commandProblem(command({ type: 'StartWorkflowExecution', ...start, taskQueue: 'a b' })) ?? '', /^taskQueue 'a b'/);
  const update = { type: 'UpdateWorkflowExecution' as const, request: { updateId: 'u1', identity: 'x', name: '', header: {}, args: [] }, waitForStage: 'Completed' as const };
  assert.equal(commandProblem(command(update)), null, 'an empty update name waits for a known update');
  const error = (() => {
    try {
      assertValid(commandProblem(command(signal, { workflowId: 'x'.repeat(1001) })));
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  assert.ok(error instanceof InvalidArgumentError);
  assert.equal(error.code, 'INVALID_ARGUMENT');
  assert.equal(error.retriable, false);
  assert.match(error.message, /^workflowId '.*' is 1001 bytes long/);
});
