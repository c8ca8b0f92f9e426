/**
 * Golden Command v1 cases: worker claims and results, including a WorkflowTaskCompleted that
 * carries every workflow command. Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleBinaryPayload,
  sampleFailure,
  sampleHeader,
  sampleMemo,
  sampleRetryPolicy,
  sampleRunId,
  sampleSearchAttributes,
  type FixtureCase,
} from '../fixture-samples.js';
import { sampleCommand } from './v1-fixture-cases-clients.js';
import type { Command } from './v1.js';
import type { WorkflowCommand } from './v1-workflow-commands.js';

const attempt = { scheduledEventId: 5, attempt: 2, identity: 'worker-3@host-4' };
const updateRequest = { updateId: 'upd-1', identity: 'cli@laptop', name: 'addItem', header: {}, args: [] };

/** One workflow command of every type, in union order. */
export const everyWorkflowCommand: WorkflowCommand[] = [
  { type: 'ScheduleActivityTask', activityId: '1', activityType: 'chargeCard', taskQueue: null, header: sampleHeader,
    input: [jsonPayload({ amount: 1999 })], scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null,
    startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: 5000, retryPolicy: sampleRetryPolicy },
  { type: 'RequestCancelActivityTask', scheduledEventId: 5 },
  { type: 'StartTimer', timerId: '2', startToFireTimeoutMs: 172_800_000 },
  { type: 'CancelTimer', timerId: '2' },
  { type: 'CompleteWorkflowExecution', result: jsonPayload('shipped') },
  { type: 'FailWorkflowExecution', failure: sampleFailure },
  { type: 'CancelWorkflowExecution', details: null },
  { type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [jsonPayload({ cursor: 100 })],
    workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null,
    header: {}, memo: null, searchAttributes: sampleSearchAttributes },
  { type: 'StartChildWorkflowExecution', namespace: null, workflowId: 'invoice-42', workflowType: 'invoice',
    taskQueue: 'billing', input: [], workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null,
    workflowTaskTimeoutMs: null, parentClosePolicy: 'Abandon', workflowIdReusePolicy: 'AllowDuplicate',
    retryPolicy: null, cronSchedule: null, header: {}, memo: sampleMemo, searchAttributes: {} },
  { type: 'SignalExternalWorkflowExecution', namespace: null, workflowId: 'warehouse-3', runId: null,
    signalName: 'reserve', input: [jsonPayload({ sku: 'A-1' })], childWorkflowOnly: false, header: {} },
  { type: 'RequestCancelExternalWorkflowExecution', namespace: 'default', workflowId: 'invoice-42', runId: sampleRunId,
    childWorkflowOnly: true, reason: 'order cancelled' },
  { type: 'RecordMarker', markerName: 'core_patch', details: { patch_data: [jsonPayload({ id: 'fraud-check' })] },
    header: {}, failure: null },
  { type: 'UpsertWorkflowSearchAttributes', searchAttributes: { CustomerTier: { type: 'Keyword', value: 'platinum' } } },
  { type: 'ModifyWorkflowProperties', upsertedMemo: { note: sampleBinaryPayload } },
  { type: 'ProtocolMessage', messageId: 'upd-1/accept', protocolInstanceId: 'upd-1', body: {
    type: 'UpdateAcceptance', acceptedRequestMessageId: 'upd-1/request', acceptedRequestSequencingEventId: 3,
    acceptedRequest: updateRequest } },
  { type: 'ProtocolMessage', messageId: 'upd-2/reject', protocolInstanceId: 'upd-2', body: {
    type: 'UpdateRejection', rejectedRequestMessageId: 'upd-2/request', rejectedRequestSequencingEventId: 3,
    rejectedRequest: { ...updateRequest, updateId: 'upd-2' }, failure: sampleFailure } },
  { type: 'ProtocolMessage', messageId: 'upd-1/response', protocolInstanceId: 'upd-1', body: {
    type: 'UpdateResponse', result: jsonPayload({ items: 3 }), failure: null } },
];

/** Cases named after their command type. */
export const taskCommandCases: readonly FixtureCase<Command>[] = [
  { name: 'workflow-task-started', value: sampleCommand('req-wt-1', {
    type: 'WorkflowTaskStarted', scheduledEventId: 2, attempt: 1, identity: 'worker-1@host-2',
  }, sampleRunId) },
  { name: 'workflow-task-completed', value: sampleCommand('req-wtc-1', {
    type: 'WorkflowTaskCompleted', scheduledEventId: 2, attempt: 1, identity: 'worker-1@host-2',
    commands: everyWorkflowCommand, sdkFlags: [1], sdkName: 'logbook-sdk', sdkVersion: '0.1.0',
  }, sampleRunId) },
  { name: 'workflow-task-failed', value: sampleCommand('req-wtf-1', {
    type: 'WorkflowTaskFailed', scheduledEventId: 2, attempt: 3, identity: 'worker-1@host-2',
    cause: 'WorkflowWorkerUnhandledFailure', failure: { ...sampleFailure, code: 'DeadlockError', cause: null },
  }, sampleRunId) },
  { name: 'activity-task-started', value: sampleCommand('req-ats-1', { type: 'ActivityTaskStarted', ...attempt }, sampleRunId) },
  { name: 'activity-task-completed', value: sampleCommand('req-atc-1', {
    type: 'ActivityTaskCompleted', ...attempt, result: jsonPayload({ chargeId: 'ch_1' }),
  }, sampleRunId) },
  { name: 'activity-task-failed', value: sampleCommand('req-atf-1', {
    type: 'ActivityTaskFailed', ...attempt, failure: sampleFailure, lastHeartbeatDetails: jsonPayload({ page: 7 }),
  }, sampleRunId) },
  { name: 'activity-task-heartbeat', value: sampleCommand('req-ath-1', {
    type: 'ActivityTaskHeartbeat', ...attempt, details: jsonPayload({ page: 8 }),
  }, sampleRunId) },
  { name: 'activity-task-canceled', value: sampleCommand('req-atx-1', {
    type: 'ActivityTaskCanceled', ...attempt, details: null,
  }, sampleRunId) },
];
