/**
 * HistoryEvent v1 attributes: workflow tasks (one round of running workflow code on a worker).
 * @module
 */
import { arrayOf, field, optional, record } from '../avro-schema.js';
import {
  timeoutTypeSchema,
  workflowTaskFailedCauseSchema,
  type TimeoutType,
  type WorkflowTaskFailedCause,
} from '../common/v1-enums.js';
import { failureSchema, type Failure } from '../common/v1-records.js';

/** A workflow task was dispatched to the run's task queue. */
export interface WorkflowTaskScheduledEventAttributes {
  taskQueue: string;
  startToCloseTimeoutMs: number;
  attempt: number;
}

/** A worker claimed the workflow task. */
export interface WorkflowTaskStartedEventAttributes {
  scheduledEventId: number;
  identity: string;
  requestId: string;
  /** History size in bytes when the task started (the SDK exposes it to suggest continue-as-new). */
  historySizeBytes: number;
  suggestContinueAsNew: boolean;
}

/** The worker finished the task; the commands it returned follow as events. */
export interface WorkflowTaskCompletedEventAttributes {
  scheduledEventId: number;
  startedEventId: number;
  identity: string;
  /** SDK behaviour flags first used in this task; replay must honour them (gated changes). */
  sdkFlags: number[];
  sdkName: string | null;
  sdkVersion: string | null;
}

/** The worker reported a failure (e.g. non-determinism); the task will be retried. */
export interface WorkflowTaskFailedEventAttributes {
  scheduledEventId: number;
  startedEventId: number;
  cause: WorkflowTaskFailedCause;
  failure: Failure | null;
  identity: string;
}

/** The task was not completed in time. `startedEventId` is null for a schedule-to-start timeout. */
export interface WorkflowTaskTimedOutEventAttributes {
  scheduledEventId: number;
  startedEventId: number | null;
  timeoutType: TimeoutType;
}

/** Tag → attributes of the events in this file. */
export interface WorkflowTaskEventAttributesMap {
  WorkflowTaskScheduled: WorkflowTaskScheduledEventAttributes;
  WorkflowTaskStarted: WorkflowTaskStartedEventAttributes;
  WorkflowTaskCompleted: WorkflowTaskCompletedEventAttributes;
  WorkflowTaskFailed: WorkflowTaskFailedEventAttributes;
  WorkflowTaskTimedOut: WorkflowTaskTimedOutEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const workflowTaskEventSchemas = [
  record('logbook.WorkflowTaskScheduledEventAttributes', [
    field('taskQueue', 'string'),
    field('startToCloseTimeoutMs', 'long'),
    field('attempt', 'int'),
  ]),
  record('logbook.WorkflowTaskStartedEventAttributes', [
    field('scheduledEventId', 'long'),
    field('identity', 'string'),
    field('requestId', 'string'),
    field('historySizeBytes', 'long'),
    field('suggestContinueAsNew', 'boolean'),
  ]),
  record('logbook.WorkflowTaskCompletedEventAttributes', [
    field('scheduledEventId', 'long'),
    field('startedEventId', 'long'),
    field('identity', 'string'),
    field('sdkFlags', arrayOf('int')),
    optional('sdkName', 'string'),
    optional('sdkVersion', 'string'),
  ]),
  record('logbook.WorkflowTaskFailedEventAttributes', [
    field('scheduledEventId', 'long'),
    field('startedEventId', 'long'),
    field('cause', workflowTaskFailedCauseSchema),
    optional('failure', failureSchema),
    field('identity', 'string'),
  ]),
  record('logbook.WorkflowTaskTimedOutEventAttributes', [
    field('scheduledEventId', 'long'),
    optional('startedEventId', 'long'),
    field('timeoutType', timeoutTypeSchema),
  ]),
] as const;
