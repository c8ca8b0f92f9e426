/**
 * Golden WorkflowTask v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { jsonPayload, sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import { lifecycleEventCases } from '../history-event/v1-fixture-cases-lifecycle.js';
import type { WorkflowTask } from './v1.js';

const firstEvents = lifecycleEventCases.filter((c) =>
  ['workflow-execution-started', 'workflow-task-scheduled'].includes(c.name)).map((c) => c.value);

/** The first task of a run, and a later one carrying an update and a query. */
export const workflowTaskCases: readonly FixtureCase<WorkflowTask>[] = [
  { name: 'first-task', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', taskQueue: 'orders',
    scheduledEventId: 2, attempt: 1, scheduledTime: sampleTime + 2000, startToCloseTimeoutMs: 10_000,
    events: firstEvents, lastEventId: 2, startedEventIdHint: 3, messages: [], queries: [],
  } },
  { name: 'update-and-query', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', taskQueue: 'orders',
    scheduledEventId: 8, attempt: 1, scheduledTime: sampleTime + 8000, startToCloseTimeoutMs: 10_000,
    events: [], lastEventId: 8, startedEventIdHint: 9,
    messages: [{ messageId: 'upd-1/request', protocolInstanceId: 'upd-1', sequencingEventId: 8, request: {
      updateId: 'upd-1', identity: 'cli@laptop', name: 'addItem', header: {}, args: [jsonPayload({ sku: 'A-1' })] } }],
    queries: [{ queryId: 'q-1', queryType: 'status', args: [], header: {} }],
  } },
];
