/**
 * Golden MutableStateSnapshot v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleFailure,
  sampleMemo,
  sampleRetryPolicy,
  sampleRunId,
  sampleSearchAttributes,
  sampleTime,
  type FixtureCase,
} from '../fixture-samples.js';
import type { ExecutionInfo, MutableStateSnapshot } from './v1.js';

const executionInfo: ExecutionInfo = {
  namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', taskQueue: 'orders',
  status: 'Running', startTime: sampleTime, executionTime: sampleTime, closeTime: null,
  workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: 3_600_000, workflowTaskTimeoutMs: 10_000,
  workflowExecutionExpirationTime: null, workflowRunExpirationTime: sampleTime + 3_600_000, lastEventId: 7,
  nextEventId: 8, lastEventTime: sampleTime + 7000, lastWorkflowTaskCompletedEventId: 4,
  firstExecutionRunId: sampleRunId, parent: null, attempt: 1, retryPolicy: null, cronSchedule: null,
  cancelRequested: false, historySizeBytes: 4096,
};

const empty: Omit<MutableStateSnapshot, 'executionInfo'> = {
  pendingActivities: [], pendingTimers: [], pendingWorkflowTask: null, bufferedEvents: [], requestIds: [],
  pendingChildren: [], pendingSignalExternals: [], pendingCancelExternals: [], pendingUpdates: [],
  resultWaiters: [], searchAttributes: {}, memo: {},
};

/** A fresh run, a busy run, and a closed one. */
export const mutableStateSnapshotCases: readonly FixtureCase<MutableStateSnapshot>[] = [
  { name: 'just-started', value: { executionInfo: { ...executionInfo, lastEventId: 2, nextEventId: 3,
    lastWorkflowTaskCompletedEventId: null }, ...empty, requestIds: ['req-start-1'],
    pendingWorkflowTask: { scheduledEventId: 2, scheduledTime: sampleTime, attempt: 1, taskQueue: 'orders',
      startToCloseTimeoutMs: 10_000, startedEventId: null, startedTime: null, startedIdentity: null,
      startedRequestId: null } } },
  { name: 'busy', value: {
    executionInfo,
    pendingActivities: [{
      scheduledEventId: 5, activityId: '1', activityType: 'chargeCard', taskQueue: 'payments', attempt: 3,
      scheduledTime: sampleTime + 5000, currentAttemptScheduledTime: sampleTime + 9000, startedTime: sampleTime + 9100,
      startedIdentity: 'worker-3@host-4', startedRequestId: 'req-ats-3', lastHeartbeatTime: sampleTime + 9500,
      lastHeartbeatDetails: jsonPayload({ page: 8 }), lastFailure: sampleFailure, scheduleToCloseTimeoutMs: 600_000,
      scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: 5000,
      retryPolicy: sampleRetryPolicy, retryDeadline: sampleTime + 605_000, cancelRequested: false,
      cancelRequestedEventId: null,
    }],
    pendingTimers: [{ timerId: '2', startedEventId: 6, expiryTime: sampleTime + 172_806_000 }],
    pendingWorkflowTask: { scheduledEventId: 8, scheduledTime: sampleTime + 8000, attempt: 1, taskQueue: 'orders',
      startToCloseTimeoutMs: 10_000, startedEventId: 9, startedTime: sampleTime + 8100,
      startedIdentity: 'worker-1@host-2', startedRequestId: 'req-wt-2' },
    bufferedEvents: [{ eventTime: sampleTime + 8200, attributes: { type: 'WorkflowExecutionSignaled',
      signalName: 'packed', input: [jsonPayload({ parcels: 2 })], identity: 'seller-app', header: {},
      requestId: 'req-signal-1', externalInitiator: null } }],
    requestIds: ['req-start-1', 'req-signal-1'],
    pendingChildren: [{ initiatedEventId: 7, startedEventId: null, namespace: 'default', workflowId: 'invoice-42',
      runId: null, workflowType: 'invoice', parentClosePolicy: 'Terminate' }],
    pendingSignalExternals: [{ initiatedEventId: 6, namespace: 'default', workflowId: 'warehouse-3', runId: null }],
    pendingCancelExternals: [],
    pendingUpdates: [{ request: { updateId: 'upd-1', identity: 'cli@laptop', name: 'addItem', header: {}, args: [] },
      admittedTime: sampleTime + 8300, acceptedEventId: null, waitForStage: 'Completed',
      replyTo: { gatewayId: 'gateway-2', requestId: 'gw-req-78' } }],
    resultWaiters: [{ replyTo: { gatewayId: 'gateway-1', requestId: 'gw-req-79' }, followRuns: true }],
    searchAttributes: sampleSearchAttributes,
    memo: sampleMemo,
  } },
  { name: 'closed', value: { executionInfo: { ...executionInfo, status: 'Completed', closeTime: sampleTime + 20_000,
    lastEventId: 20, nextEventId: 21, lastEventTime: sampleTime + 20_000, lastWorkflowTaskCompletedEventId: 19 },
    ...empty } },
];
