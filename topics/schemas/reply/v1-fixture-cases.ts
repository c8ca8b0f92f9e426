/**
 * Golden Reply v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { jsonPayload, sampleFailure, sampleRunId, type FixtureCase } from '../fixture-samples.js';
import type { Reply } from './v1.js';

/** One reply of each common kind. */
export const replyCases: readonly FixtureCase<Reply>[] = [
  { name: 'start-accepted', value: { requestId: 'gw-req-77', kind: 'StartAccepted', runId: sampleRunId, payload: null,
    failure: null, executionStatus: null } },
  { name: 'result-completed', value: { requestId: 'gw-req-79', kind: 'Result', runId: sampleRunId,
    payload: jsonPayload('shipped'), failure: null, executionStatus: 'Completed' } },
  { name: 'update-failed', value: { requestId: 'gw-req-78', kind: 'UpdateResult', runId: sampleRunId, payload: null,
    failure: sampleFailure, executionStatus: null } },
  { name: 'error', value: { requestId: 'gw-req-80', kind: 'Error', runId: null, payload: null,
    failure: { ...sampleFailure, code: 'WorkflowNotFound', details: null, cause: null }, executionStatus: null } },
];

/** Reply v2 adds the `Accepted` kind; a query's answer (a `QueryAnswer` with the result payload, or a failure). */
export const replyV2Cases: readonly FixtureCase<Reply | Omit<Reply, 'kind'> & { kind: 'Accepted' }>[] = [
  { name: 'accepted', value: { requestId: 'gw-req-81', kind: 'Accepted', runId: sampleRunId, payload: null, failure: null, executionStatus: null } },
  { name: 'query-answer', value: { requestId: 'gw-req-90', kind: 'QueryAnswer', runId: sampleRunId, payload: jsonPayload({ stage: 'packing' }),
    failure: null, executionStatus: null } },
  { name: 'query-failed', value: { requestId: 'gw-req-91', kind: 'QueryAnswer', runId: sampleRunId, payload: null,
    failure: { ...sampleFailure, code: 'UnknownQuery', message: "no query handler named 'stauts'; known queries: status", details: null, cause: null },
    executionStatus: null } },
];
