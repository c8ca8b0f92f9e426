import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { continuedRunIdOf } from './deterministic-seed.js';
import { failure, HistoryDriver, json, retryPolicy, T0 } from './test-kit.js';
import type { WorkflowTaskIntent } from './transition.js';

const fail = (d: HistoryDriver, f: Failure) => d.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: f }]);

const startedOf = (d: HistoryDriver, runId: string): HistoryEvent<'WorkflowExecutionStarted'> =>
  d.events.find((e): e is HistoryEvent<'WorkflowExecutionStarted'> => e.runId === runId && e.attributes.type === 'WorkflowExecutionStarted')!;

const closingOf = (d: HistoryDriver, runId: string): HistoryEvent => d.events.filter((e) => e.runId === runId).at(-1)!;

/** Waits for the backoff of the current run, so its first workflow task is sent. */
const waitForFirstTask = (d: HistoryDriver, backoffMs: number) => d.advance(backoffMs);

describe('workflow retry policy', () => {
  it('a failed run with attempts left closes with ContinuedAsNew(initiator Retry, the failure) and a new run starts after the backoff, with the same input and header and attempt 2', () => {
    const d = new HistoryDriver();
    const header = { traceparent: json('00-abc-01') };
    d.start({ retryPolicy: retryPolicy({ initialIntervalMs: 2000, maximumAttempts: 3 }), header, workflowExecutionTimeoutMs: 3_600_000 });
    const transition = fail(d, failure('PaymentDeclined'));

    const secondRunId = continuedRunIdOf('run-1', 5);
    const closing = closingOf(d, 'run-1');
    assert.deepEqual(closing.attributes, {
      type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: secondRunId, workflowType: 'order', taskQueue: 'orders',
      input: [json({ orderId: 42 })], workflowRunTimeoutMs: 3_600_000, workflowTaskTimeoutMs: 10_000, workflowTaskCompletedEventId: 4,
      backoffStartIntervalMs: 2000, initiator: 'Retry', failure: failure('PaymentDeclined'), lastCompletionResult: null, header,
      memo: {}, searchAttributes: {},
    });
    assert.equal(transition.closedRun!.visibility.status, 'ContinuedAsNew');
    const started = startedOf(d, secondRunId).attributes;
    assert.deepEqual(
      [started.attempt, started.continuedExecutionRunId, started.initiator, started.continuedFailure, started.firstExecutionRunId, started.firstWorkflowTaskBackoffMs],
      [2, 'run-1', 'Retry', failure('PaymentDeclined'), 'run-1', 2000],
    );
    assert.deepEqual([started.input, started.header], [[json({ orderId: 42 })], header]);
    assert.deepEqual(d.types(secondRunId), ['WorkflowExecutionStarted'], 'no workflow task before the backoff');
    assert.equal(d.state!.executionInfo.attempt, 2);

    waitForFirstTask(d, 1999);
    assert.deepEqual(d.types(secondRunId), ['WorkflowExecutionStarted']);
    waitForFirstTask(d, 1);
    assert.deepEqual(d.types(secondRunId), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
    assert.equal(d.lastWorkflowTask().runId, secondRunId);
  });

  it('backs off initial × coefficient^(n−1) capped at the maximum interval, and the last allowed attempt fails the workflow with MaximumAttemptsReached', () => {
    const d = new HistoryDriver();
    d.start({ retryPolicy: retryPolicy({ initialIntervalMs: 1000, backoffCoefficient: 3, maximumIntervalMs: 5000, maximumAttempts: 4 }) });
    const backoffs: (number | null)[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const runId = d.state!.executionInfo.runId;
      assert.equal(d.state!.executionInfo.attempt, attempt);
      fail(d, failure(`Boom${attempt}`));
      const closing = closingOf(d, runId).attributes;
      if (closing.type === 'WorkflowExecutionContinuedAsNew') {
        backoffs.push(closing.backoffStartIntervalMs);
        d.advance(closing.backoffStartIntervalMs!);
      } else {
        assert.ok(closing.type === 'WorkflowExecutionFailed');
        assert.equal(closing.retryState, 'MaximumAttemptsReached');
        assert.deepEqual(closing.failure, failure('Boom4'));
      }
    }
    assert.deepEqual(backoffs, [1000, 3000, 5000]);
    assert.equal(d.state!.executionInfo.status, 'Failed');
    assert.equal(d.state!.executionInfo.firstExecutionRunId, 'run-1');
  });

  it('does not retry a non-retryable failure: flagged nonRetryable, or its code listed in nonRetryableErrorTypes', () => {
    for (const [f, types] of [[failure('InvalidOrder', true), []], [failure('InvalidOrder'), ['InvalidOrder']]] as const) {
      const d = new HistoryDriver();
      d.start({ retryPolicy: retryPolicy({ nonRetryableErrorTypes: [...types] }) });
      fail(d, f);
      const closing = closingOf(d, 'run-1').attributes;
      assert.ok(closing.type === 'WorkflowExecutionFailed');
      assert.equal(closing.retryState, 'NonRetryableFailure');
      assert.equal(d.state!.executionInfo.runId, 'run-1');
    }
  });

  it('fails with RetryPolicyNotSet without a policy, and with Timeout when the next attempt would not start before the execution timeout', () => {
    const plain = new HistoryDriver();
    plain.start();
    fail(plain, failure('Boom'));
    assert.equal((closingOf(plain, 'run-1').attributes as { retryState: string }).retryState, 'RetryPolicyNotSet');

    const bounded = new HistoryDriver();
    bounded.start({ retryPolicy: retryPolicy({ initialIntervalMs: 10_000 }), workflowExecutionTimeoutMs: 15_000 });
    bounded.now += 5_000;
    fail(bounded, failure('Boom'));
    assert.equal((closingOf(bounded, 'run-1').attributes as { retryState: string }).retryState, 'Timeout');
  });

  it('retries a run timeout (the in-flight task writes nothing, buffered events are kept) but never the execution timeout, nor terminate or cancel', () => {
    const d = new HistoryDriver();
    d.start({ retryPolicy: retryPolicy({ initialIntervalMs: 1000, maximumAttempts: 5 }), workflowRunTimeoutMs: 60_000, workflowExecutionTimeoutMs: 150_000 });
    d.send('SignalWorkflowExecution', { signalName: 's', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.advance(60_000);
    assert.deepEqual(d.types('run-1'), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowExecutionSignaled', 'WorkflowExecutionContinuedAsNew']);
    const closing = closingOf(d, 'run-1').attributes;
    assert.ok(closing.type === 'WorkflowExecutionContinuedAsNew');
    assert.deepEqual([closing.initiator, closing.failure?.code, closing.workflowTaskCompletedEventId], ['Retry', 'TimedOut', 0]);
    const second = d.state!.executionInfo;
    assert.deepEqual([second.attempt, second.workflowRunExpirationTime, second.workflowExecutionExpirationTime], [2, T0 + 60_000 + 1000 + 60_000, T0 + 150_000]);

    // The second run times out at 121 s; a third attempt's run would be cut at 150 s by the chain's deadline.
    d.advance(61_000);
    const third = d.state!.executionInfo;
    assert.deepEqual([third.attempt, third.workflowRunExpirationTime], [3, T0 + 150_000]);
    d.advance(29_000);
    const last = closingOf(d, third.runId).attributes;
    assert.ok(last.type === 'WorkflowExecutionTimedOut');
    assert.equal(last.retryState, 'Timeout');
    assert.equal(d.state!.executionInfo.status, 'TimedOut');

    const terminated = new HistoryDriver();
    terminated.start({ retryPolicy: retryPolicy() });
    terminated.send('TerminateWorkflowExecution', { reason: 'stop', details: null, identity: 'ops' });
    assert.equal(terminated.state!.executionInfo.status, 'Terminated');
    assert.equal(terminated.state!.executionInfo.runId, 'run-1');
  });

  it('moves result waiters that follow runs to the retry, and answers the others ContinuedAsNew with the failure', () => {
    const d = new HistoryDriver();
    d.start({ retryPolicy: retryPolicy({ maximumAttempts: 2 }) });
    d.send('AwaitWorkflowExecutionResult', { followRuns: true }, { replyTo: 'follower' });
    const own = d.send('AwaitWorkflowExecutionResult', { followRuns: false }, { replyTo: 'own' });
    assert.equal(own.replies.length, 0);
    const transition = fail(d, failure('Boom'));
    assert.deepEqual(transition.replies.map((r) => [r.requestId, r.executionStatus, r.failure?.code]), [['own', 'ContinuedAsNew', 'Boom']]);
    d.advance(1000);
    const final = fail(d, failure('BoomAgain'));
    assert.deepEqual(final.replies.map((r) => [r.requestId, r.executionStatus, r.failure?.code]), [['follower', 'Failed', 'BoomAgain']]);
  });

  it('refuses a start with an invalid retry policy, naming the problem', () => {
    const d = new HistoryDriver();
    const transition = d.start({ retryPolicy: retryPolicy({ backoffCoefficient: 0.5 }) }, { replyTo: 'r' });
    assert.equal(transition.rejection?.code, 'InvalidArgument');
    assert.match(transition.rejection!.message, /retryPolicy: backoffCoefficient must be ≥ 1/);
  });

  it('derives the same retry run from the same inputs (replaying the failure gives an equal transition)', () => {
    const run = () => {
      const d = new HistoryDriver();
      d.start({ retryPolicy: retryPolicy() });
      const { scheduledEventId, attempt } = d.lastWorkflowTask() as WorkflowTaskIntent;
      d.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'worker-1' });
      return d.send('WorkflowTaskCompleted', {
        scheduledEventId, attempt, identity: 'worker-1', commands: [{ type: 'FailWorkflowExecution', failure: failure('Boom') }],
        sdkFlags: [], sdkName: null, sdkVersion: null,
      }, { requestId: 'same' });
    };
    assert.deepEqual(run(), run());
  });
});
