/**
 * Golden HistoryEvent v1 cases: run lifecycle, workflow tasks, activities, timers.
 * Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleBinaryPayload,
  sampleFailure,
  sampleHeader,
  sampleMemo,
  sampleOtherRunId,
  sampleRetryPolicy,
  sampleRunId,
  sampleSearchAttributes,
  sampleTime,
  type FixtureCase,
} from '../fixture-samples.js';
import type { HistoryEvent, HistoryEventAttributes } from './v1.js';

/** Wraps attributes in the envelope of the sample run. */
export function sampleEvent(eventId: number, attributes: HistoryEventAttributes): HistoryEvent {
  return {
    namespace: 'default',
    workflowId: 'order-42',
    runId: sampleRunId,
    workflowType: 'order',
    taskQueue: 'orders',
    eventId,
    eventTime: sampleTime + eventId * 1000,
    attributes,
  } as HistoryEvent;
}

/** Cases named after their event type. */
export const lifecycleEventCases: readonly FixtureCase<HistoryEvent>[] = [
  { name: 'workflow-execution-started', value: sampleEvent(1, {
    type: 'WorkflowExecutionStarted', workflowType: 'order', taskQueue: 'orders',
    input: [jsonPayload({ orderId: 42 }), sampleBinaryPayload],
    workflowExecutionTimeoutMs: 86_400_000, workflowRunTimeoutMs: 3_600_000, workflowTaskTimeoutMs: 10_000,
    parent: { namespace: 'default', workflowId: 'checkout-7', runId: sampleOtherRunId, initiatedEventId: 5 },
    continuedExecutionRunId: null, initiator: null, continuedFailure: null, lastCompletionResult: null,
    originalExecutionRunId: sampleRunId, firstExecutionRunId: sampleRunId, identity: 'gateway@host-1',
    requestId: 'req-start-1', retryPolicy: sampleRetryPolicy, attempt: 1,
    workflowExecutionExpirationTime: sampleTime + 86_400_000, cronSchedule: null, firstWorkflowTaskBackoffMs: null,
    memo: sampleMemo, searchAttributes: sampleSearchAttributes, header: sampleHeader, prngSeed: 7_450_985_021_337_421,
  }) },
  { name: 'workflow-execution-started-continued', value: sampleEvent(1, {
    type: 'WorkflowExecutionStarted', workflowType: 'order', taskQueue: 'orders', input: [],
    workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: 10_000, parent: null,
    continuedExecutionRunId: sampleOtherRunId, initiator: 'CronSchedule', continuedFailure: sampleFailure,
    lastCompletionResult: jsonPayload('done'), originalExecutionRunId: sampleRunId,
    firstExecutionRunId: sampleOtherRunId, identity: '', requestId: 'req-start-2', retryPolicy: null, attempt: 3,
    workflowExecutionExpirationTime: null, cronSchedule: '0 * * * *', firstWorkflowTaskBackoffMs: 60_000,
    memo: {}, searchAttributes: {}, header: {}, prngSeed: 0,
  }) },
  { name: 'workflow-execution-completed', value: sampleEvent(20, {
    type: 'WorkflowExecutionCompleted', result: jsonPayload('shipped'), workflowTaskCompletedEventId: 19,
    newExecutionRunId: null,
  }) },
  { name: 'workflow-execution-failed', value: sampleEvent(20, {
    type: 'WorkflowExecutionFailed', failure: sampleFailure, retryState: 'MaximumAttemptsReached',
    workflowTaskCompletedEventId: 19, newExecutionRunId: null,
  }) },
  { name: 'workflow-execution-timed-out', value: sampleEvent(20, {
    type: 'WorkflowExecutionTimedOut', retryState: 'Timeout', newExecutionRunId: sampleOtherRunId,
  }) },
  { name: 'workflow-execution-continued-as-new', value: sampleEvent(20, {
    type: 'WorkflowExecutionContinuedAsNew', newExecutionRunId: sampleOtherRunId, workflowType: 'order',
    taskQueue: 'orders', input: [jsonPayload({ cursor: 100 })], workflowRunTimeoutMs: null,
    workflowTaskTimeoutMs: 10_000, workflowTaskCompletedEventId: 19, backoffStartIntervalMs: null,
    initiator: 'Workflow', failure: null, lastCompletionResult: null, header: sampleHeader, memo: sampleMemo,
    searchAttributes: sampleSearchAttributes,
  }) },
  { name: 'workflow-execution-cancel-requested', value: sampleEvent(8, {
    type: 'WorkflowExecutionCancelRequested', cause: 'customer cancelled',
    externalInitiator: { namespace: 'default', workflowId: 'checkout-7', runId: sampleOtherRunId, initiatedEventId: 12 },
    identity: 'cli@laptop',
  }) },
  { name: 'workflow-execution-canceled', value: sampleEvent(11, {
    type: 'WorkflowExecutionCanceled', workflowTaskCompletedEventId: 10, details: jsonPayload({ refunded: true }),
  }) },
  { name: 'workflow-execution-terminated', value: sampleEvent(9, {
    type: 'WorkflowExecutionTerminated', reason: 'stuck', details: null, identity: 'ops@console',
  }) },
  { name: 'workflow-task-scheduled', value: sampleEvent(2, {
    type: 'WorkflowTaskScheduled', taskQueue: 'orders', startToCloseTimeoutMs: 10_000, attempt: 1,
  }) },
  { name: 'workflow-task-started', value: sampleEvent(3, {
    type: 'WorkflowTaskStarted', scheduledEventId: 2, identity: 'worker-1@host-2', requestId: 'req-wt-1',
    historySizeBytes: 2048, suggestContinueAsNew: false,
  }) },
  { name: 'workflow-task-completed', value: sampleEvent(4, {
    type: 'WorkflowTaskCompleted', scheduledEventId: 2, startedEventId: 3, identity: 'worker-1@host-2',
    sdkFlags: [1, 2], sdkName: 'logbook-sdk', sdkVersion: '0.1.0',
  }) },
  { name: 'workflow-task-failed', value: sampleEvent(4, {
    type: 'WorkflowTaskFailed', scheduledEventId: 2, startedEventId: 3, cause: 'NonDeterministicError',
    failure: { ...sampleFailure, code: 'NonDeterminismError', cause: null }, identity: 'worker-1@host-2',
  }) },
  { name: 'workflow-task-timed-out', value: sampleEvent(4, {
    type: 'WorkflowTaskTimedOut', scheduledEventId: 2, startedEventId: null, timeoutType: 'ScheduleToStart',
  }) },
  { name: 'activity-task-scheduled', value: sampleEvent(5, {
    type: 'ActivityTaskScheduled', activityId: '1', activityType: 'chargeCard', taskQueue: 'payments',
    header: sampleHeader, input: [jsonPayload({ amount: 1999, currency: 'EUR' })],
    scheduleToCloseTimeoutMs: 600_000, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 30_000,
    heartbeatTimeoutMs: null, workflowTaskCompletedEventId: 4, retryPolicy: sampleRetryPolicy,
  }) },
  { name: 'activity-task-started', value: sampleEvent(6, {
    type: 'ActivityTaskStarted', scheduledEventId: 5, identity: 'worker-3@host-4', requestId: 'req-at-1',
    attempt: 2, lastFailure: sampleFailure,
  }) },
  { name: 'activity-task-completed', value: sampleEvent(7, {
    type: 'ActivityTaskCompleted', result: jsonPayload({ chargeId: 'ch_1' }), scheduledEventId: 5,
    startedEventId: 6, identity: 'worker-3@host-4',
  }) },
  { name: 'activity-task-failed', value: sampleEvent(7, {
    type: 'ActivityTaskFailed', failure: sampleFailure, scheduledEventId: 5, startedEventId: 6,
    identity: 'worker-3@host-4', retryState: 'NonRetryableFailure',
  }) },
  { name: 'activity-task-timed-out', value: sampleEvent(7, {
    type: 'ActivityTaskTimedOut', failure: { ...sampleFailure, code: 'TimeoutFailure', cause: null },
    scheduledEventId: 5, startedEventId: 6, timeoutType: 'Heartbeat', retryState: 'Timeout',
  }) },
  { name: 'activity-task-cancel-requested', value: sampleEvent(9, {
    type: 'ActivityTaskCancelRequested', scheduledEventId: 5, workflowTaskCompletedEventId: 8,
  }) },
  { name: 'activity-task-canceled', value: sampleEvent(10, {
    type: 'ActivityTaskCanceled', details: null, latestCancelRequestedEventId: 9, scheduledEventId: 5,
    startedEventId: null, identity: '',
  }) },
  { name: 'timer-started', value: sampleEvent(5, {
    type: 'TimerStarted', timerId: '1', startToFireTimeoutMs: 172_800_000, workflowTaskCompletedEventId: 4,
  }) },
  { name: 'timer-fired', value: sampleEvent(6, { type: 'TimerFired', timerId: '1', startedEventId: 5 }) },
  { name: 'timer-canceled', value: sampleEvent(9, {
    type: 'TimerCanceled', timerId: '1', startedEventId: 5, workflowTaskCompletedEventId: 8, identity: 'worker-1@host-2',
  }) },
];
