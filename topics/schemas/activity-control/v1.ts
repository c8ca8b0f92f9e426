/**
 * ActivityControl v1 — the value of `logbook.tasks.control.<ns>.<queue>`, read by every worker
 * of the queue: cancel the running activity identified by run + scheduled event id.
 * @module
 */
import { field, record } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';

/** A request to cancel a running activity. */
export interface ActivityControl {
  namespace: string;
  workflowId: string;
  runId: string;
  scheduledEventId: number;
  activityId: string;
  reason: string;
}

/** Avro schema of `logbook.ActivityControl`, version 1. Frozen. */
export const activityControlSchemaV1 = defineSchema(
  record('logbook.ActivityControl', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('runId', 'string'),
    field('scheduledEventId', 'long'),
    field('activityId', 'string'),
    field('reason', 'string'),
  ]),
);
