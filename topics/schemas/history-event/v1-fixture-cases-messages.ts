/**
 * Golden HistoryEvent v1 cases: signals, markers, updates, search attributes and memo, children,
 * external signals and cancels. Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleFailure,
  sampleHeader,
  sampleMemo,
  sampleOtherRunId,
  sampleRetryPolicy,
  sampleSearchAttributes,
  type FixtureCase,
} from '../fixture-samples.js';
import { sampleEvent } from './v1-fixture-cases-lifecycle.js';
import type { HistoryEvent } from './v1.js';

const child = { workflowId: 'invoice-42', runId: sampleOtherRunId };
const updateRequest = {
  updateId: 'upd-1', identity: 'cli@laptop', name: 'addItem', header: {}, args: [jsonPayload({ sku: 'A-1' })],
};

/** Cases named after their event type. */
export const messageEventCases: readonly FixtureCase<HistoryEvent>[] = [
  { name: 'workflow-execution-signaled', value: sampleEvent(7, {
    type: 'WorkflowExecutionSignaled', signalName: 'packed', input: [jsonPayload({ parcels: 2 })],
    identity: 'seller-app', header: sampleHeader, requestId: 'req-signal-1', externalInitiator: null,
  }) },
  { name: 'marker-recorded', value: sampleEvent(5, {
    type: 'MarkerRecorded', markerName: 'core_patch',
    details: { patch_data: [jsonPayload({ id: 'fraud-check', deprecated: false })] },
    workflowTaskCompletedEventId: 4, header: {}, failure: null,
  }) },
  { name: 'workflow-execution-update-accepted', value: sampleEvent(5, {
    type: 'WorkflowExecutionUpdateAccepted', protocolInstanceId: 'upd-1', acceptedRequestMessageId: 'upd-1/request',
    acceptedRequestSequencingEventId: 3, acceptedRequest: updateRequest,
  }) },
  { name: 'workflow-execution-update-completed', value: sampleEvent(6, {
    type: 'WorkflowExecutionUpdateCompleted', updateId: 'upd-1', acceptedEventId: 5, identity: 'worker-1@host-2',
    result: jsonPayload({ items: 3 }), failure: null,
  }) },
  { name: 'upsert-workflow-search-attributes', value: sampleEvent(5, {
    type: 'UpsertWorkflowSearchAttributes', workflowTaskCompletedEventId: 4, searchAttributes: sampleSearchAttributes,
  }) },
  { name: 'workflow-properties-modified', value: sampleEvent(5, {
    type: 'WorkflowPropertiesModified', workflowTaskCompletedEventId: 4, upsertedMemo: sampleMemo,
  }) },
  { name: 'start-child-workflow-execution-initiated', value: sampleEvent(5, {
    type: 'StartChildWorkflowExecutionInitiated', namespace: 'default', workflowId: 'invoice-42',
    workflowType: 'invoice', taskQueue: 'billing', input: [jsonPayload({ orderId: 42 })],
    workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: 600_000, workflowTaskTimeoutMs: null,
    parentClosePolicy: 'RequestCancel', workflowTaskCompletedEventId: 4, workflowIdReusePolicy: 'RejectDuplicate',
    retryPolicy: sampleRetryPolicy, cronSchedule: null, header: sampleHeader, memo: {}, searchAttributes: {},
  }) },
  { name: 'start-child-workflow-execution-failed', value: sampleEvent(6, {
    type: 'StartChildWorkflowExecutionFailed', namespace: 'default', workflowId: 'invoice-42', workflowType: 'invoice',
    cause: 'WorkflowAlreadyExists', initiatedEventId: 5, workflowTaskCompletedEventId: 4,
  }) },
  { name: 'child-workflow-execution-started', value: sampleEvent(6, {
    type: 'ChildWorkflowExecutionStarted', namespace: 'default', initiatedEventId: 5, workflowExecution: child,
    workflowType: 'invoice', header: {},
  }) },
  { name: 'child-workflow-execution-completed', value: sampleEvent(7, {
    type: 'ChildWorkflowExecutionCompleted', namespace: 'default', workflowExecution: child, workflowType: 'invoice',
    initiatedEventId: 5, startedEventId: 6, result: jsonPayload({ invoiceId: 'INV-9' }),
  }) },
  { name: 'child-workflow-execution-failed', value: sampleEvent(7, {
    type: 'ChildWorkflowExecutionFailed', namespace: 'default', workflowExecution: child, workflowType: 'invoice',
    initiatedEventId: 5, startedEventId: 6, failure: sampleFailure, retryState: 'RetryPolicyNotSet',
  }) },
  { name: 'child-workflow-execution-canceled', value: sampleEvent(7, {
    type: 'ChildWorkflowExecutionCanceled', namespace: 'default', workflowExecution: child, workflowType: 'invoice',
    initiatedEventId: 5, startedEventId: 6, details: null,
  }) },
  { name: 'child-workflow-execution-timed-out', value: sampleEvent(7, {
    type: 'ChildWorkflowExecutionTimedOut', namespace: 'default', workflowExecution: child, workflowType: 'invoice',
    initiatedEventId: 5, startedEventId: 6, retryState: 'Timeout',
  }) },
  { name: 'child-workflow-execution-terminated', value: sampleEvent(7, {
    type: 'ChildWorkflowExecutionTerminated', namespace: 'default', workflowExecution: child, workflowType: 'invoice',
    initiatedEventId: 5, startedEventId: 6,
  }) },
  { name: 'signal-external-workflow-execution-initiated', value: sampleEvent(5, {
    type: 'SignalExternalWorkflowExecutionInitiated', workflowTaskCompletedEventId: 4, namespace: 'default',
    workflowExecution: { workflowId: 'warehouse-3', runId: null }, signalName: 'reserve',
    input: [jsonPayload({ sku: 'A-1', qty: 2 })], childWorkflowOnly: false, header: {},
  }) },
  { name: 'signal-external-workflow-execution-failed', value: sampleEvent(6, {
    type: 'SignalExternalWorkflowExecutionFailed', cause: 'ExternalWorkflowExecutionNotFound',
    workflowTaskCompletedEventId: 4, namespace: 'default', workflowExecution: { workflowId: 'warehouse-3', runId: null },
    initiatedEventId: 5,
  }) },
  { name: 'external-workflow-execution-signaled', value: sampleEvent(6, {
    type: 'ExternalWorkflowExecutionSignaled', initiatedEventId: 5, namespace: 'default',
    workflowExecution: { workflowId: 'warehouse-3', runId: sampleOtherRunId },
  }) },
  { name: 'request-cancel-external-workflow-execution-initiated', value: sampleEvent(5, {
    type: 'RequestCancelExternalWorkflowExecutionInitiated', workflowTaskCompletedEventId: 4, namespace: 'default',
    workflowExecution: child, childWorkflowOnly: true, reason: 'order cancelled',
  }) },
  { name: 'request-cancel-external-workflow-execution-failed', value: sampleEvent(6, {
    type: 'RequestCancelExternalWorkflowExecutionFailed', cause: 'NamespaceNotFound', workflowTaskCompletedEventId: 4,
    namespace: 'elsewhere', workflowExecution: child, initiatedEventId: 5,
  }) },
  { name: 'external-workflow-execution-cancel-requested', value: sampleEvent(6, {
    type: 'ExternalWorkflowExecutionCancelRequested', initiatedEventId: 5, namespace: 'default', workflowExecution: child,
  }) },
];
