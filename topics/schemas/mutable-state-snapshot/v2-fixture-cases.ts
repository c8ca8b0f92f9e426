/**
 * Golden MutableStateSnapshot v2 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleFailure,
  sampleRetryPolicy,
  sampleRunId,
  sampleTime,
  type FixtureCase,
} from '../fixture-samples.js';
import type { ExecutionInfo, MutableStateSnapshot } from './v2.js';

const executionInfo: ExecutionInfo = {
  namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', taskQueue: 'orders',
  status: 'Running', startTime: sampleTime, executionTime: sampleTime, closeTime: null,
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: 10_000,
  workflowExecutionExpirationTime: null, workflowRunExpirationTime: null, lastEventId: 9, nextEventId: 10,
  lastEventTime: sampleTime + 9000, lastWorkflowTaskCompletedEventId: 4, firstExecutionRunId: sampleRunId,
  parent: null, attempt: 1, retryPolicy: null, cronSchedule: null, cancelRequested: false, historySizeBytes: 0,
};

const empty: Omit<MutableStateSnapshot, 'executionInfo'> = {
  pendingActivities: [], pendingTimers: [], pendingWorkflowTask: null, bufferedEvents: [], requestIds: [],
  pendingChildren: [], pendingSignalExternals: [], pendingCancelExternals: [], pendingUpdates: [],
  resultWaiters: [], searchAttributes: {}, memo: {}, startRequestId: 'req-start-1', workflowTaskDispatched: true,
  activitiesAwaitingBackoff: [], closeResult: null, closeFailure: null,
};

/** A run whose activity and workflow task both wait for a retry backoff, and a completed run. */
export const mutableStateSnapshotV2Cases: readonly FixtureCase<MutableStateSnapshot>[] = [
  { name: 'retrying', value: {
    executionInfo,
    ...empty,
    pendingActivities: [{
      scheduledEventId: 5, activityId: '1', activityType: 'chargeCard', taskQueue: 'orders', attempt: 3,
      scheduledTime: sampleTime + 5000, currentAttemptScheduledTime: sampleTime + 12_000, startedTime: null,
      startedIdentity: null, startedRequestId: null, lastHeartbeatTime: null,
      lastHeartbeatDetails: jsonPayload({ page: 8 }), lastFailure: sampleFailure, scheduleToCloseTimeoutMs: null,
      scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: null,
      retryPolicy: sampleRetryPolicy, retryDeadline: null, cancelRequested: false, cancelRequestedEventId: null,
    }],
    pendingWorkflowTask: { scheduledEventId: 10, scheduledTime: sampleTime + 10_000, attempt: 2, taskQueue: 'orders',
      startToCloseTimeoutMs: 10_000, startedEventId: null, startedTime: null, startedIdentity: null,
      startedRequestId: null },
    requestIds: ['req-start-1'],
    workflowTaskDispatched: false,
    activitiesAwaitingBackoff: [5],
  } },
  { name: 'completed', value: {
    executionInfo: { ...executionInfo, status: 'Completed', closeTime: sampleTime + 20_000, lastEventId: 20,
      nextEventId: 21, lastEventTime: sampleTime + 20_000, lastWorkflowTaskCompletedEventId: 19 },
    ...empty,
    closeResult: jsonPayload('shipped'),
  } },
];
