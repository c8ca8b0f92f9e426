/**
 * Golden QueryTask v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { jsonPayload, sampleHeader, sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { QueryTask } from './v1.js';

/** A query with an argument, asked while a workflow task is pending. */
export const queryTaskCases: readonly FixtureCase<QueryTask>[] = [
  { name: 'status', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, queryType: 'status', args: [jsonPayload('verbose')],
    header: sampleHeader, replyTo: { gatewayId: 'gw-1', requestId: 'gw-req-90' }, deadlineTime: sampleTime + 10_000,
    lastEventId: 12, workflowTaskScheduledEventId: 12,
  } },
];
