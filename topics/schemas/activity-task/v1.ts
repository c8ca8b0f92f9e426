/**
 * ActivityTask v1 — the value of `logbook.tasks.activity.<ns>.<queue>`: one attempt of an
 * activity, with everything the worker needs to run it and report back.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record, timestampMillis } from '../avro-schema.js';
import {
  headerSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  type Header,
  type RetryPolicy,
} from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';

/** An activity task (one attempt). */
export interface ActivityTask {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  activityId: string;
  activityType: string;
  taskQueue: string;
  input: Payload[];
  header: Header;
  scheduledEventId: number;
  attempt: number;
  scheduledTime: number;
  currentAttemptScheduledTime: number;
  /** The last heartbeat details of a previous attempt, to resume from. */
  heartbeatDetails: Payload | null;
  scheduleToCloseTimeoutMs: number | null;
  scheduleToStartTimeoutMs: number | null;
  startToCloseTimeoutMs: number | null;
  heartbeatTimeoutMs: number | null;
  retryPolicy: RetryPolicy | null;
  /** Stable across attempts: `${workflowId}:${activityId}` (DESIGN.md §1). */
  idempotencyKey: string;
}

/** Avro schema of `logbook.ActivityTask`, version 1. Frozen. */
export const activityTaskSchemaV1 = defineSchema(
  record('logbook.ActivityTask', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('runId', 'string'),
    field('workflowType', 'string'),
    field('activityId', 'string'),
    field('activityType', 'string'),
    field('taskQueue', 'string'),
    field('input', payloadsSchema),
    field('header', headerSchema),
    field('scheduledEventId', 'long'),
    field('attempt', 'int'),
    field('scheduledTime', timestampMillis),
    field('currentAttemptScheduledTime', timestampMillis),
    optional('heartbeatDetails', payloadSchema),
    optional('scheduleToCloseTimeoutMs', 'long'),
    optional('scheduleToStartTimeoutMs', 'long'),
    optional('startToCloseTimeoutMs', 'long'),
    optional('heartbeatTimeoutMs', 'long'),
    optional('retryPolicy', retryPolicySchema),
    field('idempotencyKey', 'string'),
  ]),
);
