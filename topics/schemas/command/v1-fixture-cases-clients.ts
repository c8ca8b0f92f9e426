/**
 * Golden Command v1 cases: client-facing and internal (shard-to-shard) commands.
 * Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleFailure,
  sampleHeader,
  sampleMemo,
  sampleOtherRunId,
  sampleRetryPolicy,
  sampleRunId,
  sampleSearchAttributes,
  type FixtureCase,
} from '../fixture-samples.js';
import type { StartWorkflowExecutionRequest } from './v1-client-requests.js';
import type { Command, CommandBody } from './v1.js';

/** A command to the sample run, with a request id derived from the case. */
export function sampleCommand(requestId: string, body: CommandBody, runId: string | null = null): Command {
  return { requestId, namespace: 'default', workflowId: 'order-42', runId, replyTo: null, body } as Command;
}

const start: StartWorkflowExecutionRequest = {
  runId: sampleRunId, workflowType: 'order', taskQueue: 'orders', input: [jsonPayload({ orderId: 42 })],
  identity: 'gateway@host-1', workflowIdConflictPolicy: 'UseExisting', workflowIdReusePolicy: 'AllowDuplicateFailedOnly',
  workflowExecutionTimeoutMs: 86_400_000, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null,
  retryPolicy: sampleRetryPolicy, cronSchedule: null, workflowStartDelayMs: null, memo: sampleMemo,
  searchAttributes: sampleSearchAttributes, header: sampleHeader, parent: null,
};
const child = { workflowId: 'invoice-42', runId: sampleOtherRunId };

/** Cases named after their command type. */
export const clientCommandCases: readonly FixtureCase<Command>[] = [
  { name: 'start-workflow-execution', value: {
    ...sampleCommand('req-start-1', { type: 'StartWorkflowExecution', ...start }),
    replyTo: { gatewayId: 'gateway-1', requestId: 'gw-req-77' },
  } },
  { name: 'start-workflow-execution-child', value: sampleCommand('child:0b6f1c1e:5', {
    type: 'StartWorkflowExecution', ...start, workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: 'RejectDuplicate',
    memo: {}, searchAttributes: {}, header: {}, retryPolicy: null, cronSchedule: '@hourly', workflowStartDelayMs: 5000,
    parent: { namespace: 'default', workflowId: 'checkout-7', runId: sampleOtherRunId, initiatedEventId: 5 },
  }) },
  { name: 'signal-workflow-execution', value: sampleCommand('req-signal-1', {
    type: 'SignalWorkflowExecution', signalName: 'packed', input: [jsonPayload({ parcels: 2 })], identity: 'seller-app',
    header: {}, externalInitiator: null, childWorkflowOnly: false,
  }) },
  { name: 'signal-with-start-workflow-execution', value: sampleCommand('req-sws-1', {
    type: 'SignalWithStartWorkflowExecution', start, signalName: 'addItem', signalInput: [jsonPayload({ sku: 'A-1' })],
    signalHeader: sampleHeader,
  }) },
  { name: 'request-cancel-workflow-execution', value: sampleCommand('req-cancel-1', {
    type: 'RequestCancelWorkflowExecution', identity: 'checkout', reason: 'customer cancelled',
    externalInitiator: { namespace: 'default', workflowId: 'checkout-7', runId: sampleOtherRunId, initiatedEventId: 12 },
    childWorkflowOnly: true,
  }, sampleRunId) },
  { name: 'terminate-workflow-execution', value: sampleCommand('req-term-1', {
    type: 'TerminateWorkflowExecution', reason: 'stuck', details: jsonPayload({ ticket: 'OPS-1' }), identity: 'ops@console',
  }) },
  { name: 'update-workflow-execution', value: {
    ...sampleCommand('req-upd-1', {
      type: 'UpdateWorkflowExecution', waitForStage: 'Completed',
      request: { updateId: 'upd-1', identity: 'cli@laptop', name: 'addItem', header: {}, args: [jsonPayload({ sku: 'A-1' })] },
    }),
    replyTo: { gatewayId: 'gateway-2', requestId: 'gw-req-78' },
  } },
  { name: 'await-workflow-execution-result', value: {
    ...sampleCommand('req-await-1', { type: 'AwaitWorkflowExecutionResult', followRuns: true }),
    replyTo: { gatewayId: 'gateway-1', requestId: 'gw-req-79' },
  } },
  { name: 'record-child-execution-started', value: sampleCommand('child-started:invoice-42', {
    type: 'RecordChildExecutionStarted', initiatedEventId: 5, namespace: 'default', workflowExecution: child,
    workflowType: 'invoice',
  }, sampleRunId) },
  { name: 'record-child-execution-start-failed', value: sampleCommand('child-start-failed:invoice-42', {
    type: 'RecordChildExecutionStartFailed', initiatedEventId: 5, namespace: 'default', workflowId: 'invoice-42',
    workflowType: 'invoice', cause: 'WorkflowAlreadyExists',
  }, sampleRunId) },
  { name: 'record-child-execution-completed', value: sampleCommand('child-completed:invoice-42', {
    type: 'RecordChildExecutionCompleted', initiatedEventId: 5, namespace: 'default', workflowExecution: child,
    workflowType: 'invoice', status: 'Failed', result: null, details: null, failure: sampleFailure,
    retryState: 'MaximumAttemptsReached',
  }, sampleRunId) },
  { name: 'record-signal-external-workflow-execution-result', value: sampleCommand('signal-result:5', {
    type: 'RecordSignalExternalWorkflowExecutionResult', initiatedEventId: 5, namespace: 'default',
    workflowExecution: { workflowId: 'warehouse-3', runId: null }, failureCause: 'ExternalWorkflowExecutionNotFound',
  }, sampleRunId) },
  { name: 'record-request-cancel-external-workflow-execution-result', value: sampleCommand('cancel-result:5', {
    type: 'RecordRequestCancelExternalWorkflowExecutionResult', initiatedEventId: 5, namespace: 'default',
    workflowExecution: child, failureCause: null,
  }, sampleRunId) },
];
