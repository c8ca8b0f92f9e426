/**
 * Golden Command v2 cases: the reset request. Used by `write-fixtures.ts` only.
 * @module
 */
import { jsonPayload, sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { Command } from './v2.js';

/** Cases named after their command type. */
export const commandV2Cases: readonly FixtureCase<Command>[] = [
  { name: 'reset-workflow-execution', value: {
    requestId: 'req-reset-1', namespace: 'default', workflowId: 'order-42', runId: null,
    replyTo: { gatewayId: 'gateway-1', requestId: 'gw-req-91' },
    body: {
      type: 'ResetWorkflowExecution', baseRunId: sampleRunId, workflowTaskEventId: 4, reason: 'bad deploy 2024-01-02',
      identity: 'http-gateway', baseLastEventId: 9,
      baseEvents: [
        { eventId: 2, eventTime: sampleTime, attributes: { type: 'WorkflowTaskScheduled', taskQueue: 'orders', startToCloseTimeoutMs: 10_000, attempt: 1 } },
        { eventId: 3, eventTime: sampleTime + 5, attributes: { type: 'WorkflowTaskStarted', scheduledEventId: 2, identity: 'worker-1', requestId: 'claim-1', historySizeBytes: 420, suggestContinueAsNew: false } },
        { eventId: 4, eventTime: sampleTime + 9, attributes: { type: 'WorkflowTaskCompleted', scheduledEventId: 2, startedEventId: 3, identity: 'worker-1', sdkFlags: [], sdkName: null, sdkVersion: null } },
        { eventId: 8, eventTime: sampleTime + 40, attributes: {
          type: 'WorkflowExecutionSignaled', signalName: 'packed', input: [jsonPayload({ parcels: 2 })], identity: 'seller-app',
          header: {}, requestId: 'req-signal-1', externalInitiator: null,
        } },
      ],
    },
  } },
];
