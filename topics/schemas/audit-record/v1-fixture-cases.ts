/**
 * Golden AuditRecord v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { AuditRecord } from './v1.js';

/** A successful terminate by a token holder, a start refused before it named a run, and a schedule paused. */
export const auditRecordCases: readonly FixtureCase<AuditRecord>[] = [
  { name: 'terminated', value: {
    time: sampleTime, principalSubject: 'alice@example.com', principalMethod: 'jwt', requestId: 'req-42', method: 'POST',
    route: '/api/v1/namespaces/:namespace/workflows/:workflowId/terminate', action: 'TerminateWorkflow', namespace: 'orders',
    workflowId: 'order-1', runId: sampleRunId, resourceId: null, statusCode: 202, errorCode: null, remoteAddress: '10.0.0.7', nodeId: 'http://node-1:7233',
  } },
  { name: 'refused', value: {
    time: sampleTime, principalSubject: 'anonymous', principalMethod: 'none', requestId: null, method: 'POST',
    route: '/api/v1/namespaces/:namespace/workflows', action: 'StartWorkflow', namespace: 'orders',
    workflowId: null, runId: null, resourceId: null, statusCode: 400, errorCode: 'INVALID_ARGUMENT', remoteAddress: null, nodeId: 'http://node-1:7233',
  } },
  { name: 'schedule-paused', value: {
    time: sampleTime, principalSubject: 'ops-bot', principalMethod: 'mtls', requestId: null, method: 'POST',
    route: '/api/v1/namespaces/:namespace/schedules/:scheduleId/pause', action: 'PauseSchedule', namespace: 'billing',
    workflowId: null, runId: null, resourceId: 'nightly-invoices', statusCode: 200, errorCode: null, remoteAddress: '::1', nodeId: 'http://node-2:7233',
  } },
];
