import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { LocalActivityRequest } from '../replay/local-activity-markers.js';
import { LocalActivityExecutor } from './local-activity-executor.js';

const task = (budgetMs: number) => ({ namespace: 'default', workflowId: 'wf-1', runId: 'run-1', workflowType: 'wf', taskQueue: 'q', budgetDeadline: Date.now() + budgetMs });

function request(activityType: string, retryPolicy: Partial<NonNullable<LocalActivityRequest['options']['retryPolicy']>> = {}): LocalActivityRequest {
  return {
    seq: 1, activityType, args: [defaultDataConverter.toPayload('x')],
    options: {
      startToCloseTimeoutMs: 1_000, scheduleToCloseTimeoutMs: null, attempt: 1, originalScheduleTimeMs: Date.now(),
      retryPolicy: { initialIntervalMs: 10, backoffCoefficient: 2, maximumIntervalMs: null, maximumAttempts: 0, nonRetryableErrorTypes: [], ...retryPolicy },
    },
  };
}

test('retries a failing local activity within the task budget and reports the attempt that completed', async () => {
  let calls = 0;
  const executor = new LocalActivityExecutor({ echo: async (v: string) => (++calls < 3 ? Promise.reject(new Error('busy')) : `${v}!`) }, defaultDataConverter);
  const [outcome] = await executor.run([request('echo')], task(5_000));
  assert.equal(outcome?.kind, 'completed');
  assert.equal(outcome?.attempt, 3);
  assert.equal(outcome?.kind === 'completed' && defaultDataConverter.fromPayload(outcome.result), 'x!');
});

test('hands a backoff that would end past the task budget back to the workflow instead of waiting', async () => {
  const executor = new LocalActivityExecutor({ down: async () => Promise.reject(new Error('down')) }, defaultDataConverter);
  const [outcome] = await executor.run([request('down', { initialIntervalMs: 60_000 })], task(5_000));
  assert.deepEqual(outcome && [outcome.kind, outcome.attempt, outcome.kind === 'backoff' && outcome.backoffMs, outcome.kind !== 'completed' && outcome.failure.message], ['backoff', 1, 60_000, 'down']);
});

test('stops at a non-retryable error type, at the maximum attempts, and for an unregistered activity type', async () => {
  const failing = async () => {
    const error = new Error('invalid');
    Object.assign(error, { type: 'Invalid' });
    throw error;
  };
  const executor = new LocalActivityExecutor({ failing }, defaultDataConverter);
  const [nonRetryable, limited, unknown] = await executor.run(
    [request('failing', { nonRetryableErrorTypes: ['Invalid'] }), { ...request('failing', { maximumAttempts: 2 }), seq: 2 }, { ...request('missing'), seq: 3 }],
    task(5_000),
  );
  assert.deepEqual(nonRetryable && nonRetryable.kind === 'failed' && [nonRetryable.retryState, nonRetryable.attempt], ['NonRetryableFailure', 1]);
  assert.deepEqual(limited && limited.kind === 'failed' && [limited.retryState, limited.attempt], ['MaximumAttemptsReached', 2]);
  assert.deepEqual(unknown && unknown.kind === 'failed' && [unknown.retryState, unknown.failure.code], ['NonRetryableFailure', 'ActivityTypeNotFound']);
});
