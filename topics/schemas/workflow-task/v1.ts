/**
 * WorkflowTask v1 — the value of `logbook.tasks.workflow.<ns>.<queue>`: what a worker needs to
 * advance a run — the events since the last completed workflow task, and the last event id so a
 * worker with a cold cache knows how far to page the full history.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, field, record, timestampMillis } from '../avro-schema.js';
import {
  headerSchema,
  payloadsSchema,
  updateRequestSchema,
  type Header,
  type UpdateRequest,
} from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { historyEventSchemaV1, type HistoryEvent } from '../history-event/v1.js';

/** An admitted update delivered to the workflow (Temporal's protocol message with a Request). */
export interface UpdateRequestMessage {
  messageId: string;
  protocolInstanceId: string;
  /** The update is ordered after this event id. */
  sequencingEventId: number;
  request: UpdateRequest;
}

/** A query to answer from the run's state after applying the task's events. */
export interface WorkflowQuery {
  queryId: string;
  queryType: string;
  args: Payload[];
  header: Header;
}

/** A workflow task. */
export interface WorkflowTask {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  scheduledEventId: number;
  attempt: number;
  scheduledTime: number;
  startToCloseTimeoutMs: number;
  /** Events after the last completed workflow task, in order. */
  events: HistoryEvent[];
  /** Id of the run's last event when the task was dispatched. */
  lastEventId: number;
  /** Event id WorkflowTaskStarted will get if the claim is accepted. */
  startedEventIdHint: number;
  messages: UpdateRequestMessage[];
  queries: WorkflowQuery[];
}

/** Avro schema of `logbook.WorkflowTask`, version 1. Frozen. */
export const workflowTaskSchemaV1 = defineSchema(
  record('logbook.WorkflowTask', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('runId', 'string'),
    field('workflowType', 'string'),
    field('taskQueue', 'string'),
    field('scheduledEventId', 'long'),
    field('attempt', 'int'),
    field('scheduledTime', timestampMillis),
    field('startToCloseTimeoutMs', 'long'),
    field('events', arrayOf(historyEventSchemaV1)),
    field('lastEventId', 'long'),
    field('startedEventIdHint', 'long'),
    field(
      'messages',
      arrayOf(
        record('logbook.UpdateRequestMessage', [
          field('messageId', 'string'),
          field('protocolInstanceId', 'string'),
          field('sequencingEventId', 'long'),
          field('request', updateRequestSchema),
        ]),
      ),
    ),
    field(
      'queries',
      arrayOf(
        record('logbook.WorkflowQuery', [
          field('queryId', 'string'),
          field('queryType', 'string'),
          field('args', payloadsSchema),
          field('header', headerSchema),
        ]),
      ),
    ),
  ]),
);
