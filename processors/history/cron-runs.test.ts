import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { failure, HistoryDriver, json, retryPolicy, T0 } from './test-kit.js';

// T0 is 2023-11-14T22:13:20Z: the next '*/5 * * * *' time is 22:15:00, 100 s later.
const FIRST_CRON_TIME = T0 + 100_000;

const startedOf = (d: HistoryDriver, runId: string): HistoryEvent<'WorkflowExecutionStarted'> =>
  d.events.find((e): e is HistoryEvent<'WorkflowExecutionStarted'> => e.runId === runId && e.attributes.type === 'WorkflowExecutionStarted')!;

const closingOf = (d: HistoryDriver, runId: string) => d.events.filter((e) => e.runId === runId).at(-1)!.attributes;

describe('cron workflows', () => {
  it('waits for the first cron time before the first workflow task', () => {
    const d = new HistoryDriver();
    d.start({ cronSchedule: '*/5 * * * *' });
    const started = startedOf(d, 'run-1').attributes;
    assert.deepEqual([started.cronSchedule, started.firstWorkflowTaskBackoffMs], ['*/5 * * * *', 100_000]);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted']);
    d.advance(99_999);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted']);
    d.advance(1);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled']);
  });

  it('starts the next run at the next cron time when a run completes, carrying its result; a failed run hands over its failure and keeps the last result', () => {
    const d = new HistoryDriver();
    d.start({ cronSchedule: '*/5 * * * *', workflowExecutionTimeoutMs: 120_000 });
    d.advance(100_000);
    d.now += 30_000;
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json(1) }]);
    const first = closingOf(d, 'run-1');
    assert.ok(first.type === 'WorkflowExecutionContinuedAsNew');
    assert.deepEqual([first.initiator, first.lastCompletionResult, first.failure, first.backoffStartIntervalMs], ['CronSchedule', json(1), null, 270_000]);

    const second = d.state!.executionInfo;
    assert.deepEqual([second.attempt, second.cronSchedule, second.executionTime], [1, '*/5 * * * *', FIRST_CRON_TIME + 300_000]);
    assert.equal(second.workflowExecutionExpirationTime, FIRST_CRON_TIME + 300_000 + 120_000, 'each cron run has its own execution timeout');
    assert.deepEqual([startedOf(d, second.runId).attributes.initiator, startedOf(d, second.runId).attributes.lastCompletionResult], ['CronSchedule', json(1)]);

    d.advance(270_000);
    d.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('Boom') }]);
    const third = startedOf(d, d.state!.executionInfo.runId).attributes;
    assert.deepEqual([third.initiator, third.continuedFailure?.code, third.lastCompletionResult], ['CronSchedule', 'Boom', json(1)]);
  });

  it('retries a failed cron run by its retry policy first, then goes on to the next cron time with attempt 1', () => {
    const d = new HistoryDriver();
    d.start({ cronSchedule: '*/5 * * * *', retryPolicy: retryPolicy({ maximumAttempts: 2 }) });
    d.advance(100_000);
    d.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('Boom') }]);
    assert.deepEqual([(closingOf(d, 'run-1') as { initiator: string }).initiator, d.state!.executionInfo.attempt], ['Retry', 2]);
    d.advance(1000);
    const retried = d.state!.executionInfo.runId;
    d.completeWorkflowTask([{ type: 'FailWorkflowExecution', failure: failure('Boom') }]);
    assert.deepEqual([(closingOf(d, retried) as { initiator: string }).initiator, d.state!.executionInfo.attempt], ['CronSchedule', 1]);
  });

  it('ends the chain on terminate', () => {
    const d = new HistoryDriver();
    d.start({ cronSchedule: '@hourly' });
    d.send('TerminateWorkflowExecution', { reason: 'stop', details: null, identity: 'ops' });
    assert.deepEqual([d.state!.executionInfo.status, d.state!.executionInfo.runId, closingOf(d, 'run-1').type], ['Terminated', 'run-1', 'WorkflowExecutionTerminated']);
  });

  it('refuses an invalid cron schedule, naming the field, and a cron schedule with a start delay', () => {
    const bad = new HistoryDriver().start({ cronSchedule: '0 24 * * *' });
    assert.equal(bad.rejection?.code, 'InvalidArgument');
    assert.match(bad.rejection!.message, /cronSchedule: invalid cron expression: hour: 24 is out of range/);
    const delayed = new HistoryDriver().start({ cronSchedule: '@hourly', workflowStartDelayMs: 1000 });
    assert.match(delayed.rejection!.message, /cannot be used together/);
  });
});
