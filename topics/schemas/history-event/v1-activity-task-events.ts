/**
 * HistoryEvent v1 attributes: activity tasks. While an activity retries only
 * `ActivityTaskScheduled` is in history; the final attempt's Started and its outcome are written
 * when it ends (DESIGN.md §3).
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record } from '../avro-schema.js';
import { retryStateSchema, timeoutTypeSchema, type RetryState, type TimeoutType } from '../common/v1-enums.js';
import {
  failureSchema,
  headerSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  type Failure,
  type Header,
  type RetryPolicy,
} from '../common/v1-records.js';

/** The workflow scheduled an activity. Timeouts in ms; null = not set. */
export interface ActivityTaskScheduledEventAttributes {
  activityId: string;
  activityType: string;
  taskQueue: string;
  header: Header;
  input: Payload[];
  scheduleToCloseTimeoutMs: number | null;
  scheduleToStartTimeoutMs: number | null;
  startToCloseTimeoutMs: number | null;
  heartbeatTimeoutMs: number | null;
  workflowTaskCompletedEventId: number;
  retryPolicy: RetryPolicy | null;
}

/** A worker claimed the activity's final attempt. */
export interface ActivityTaskStartedEventAttributes {
  scheduledEventId: number;
  identity: string;
  requestId: string;
  attempt: number;
  /** Failure of the previous attempt, if any. */
  lastFailure: Failure | null;
}

/** The activity returned a result. */
export interface ActivityTaskCompletedEventAttributes {
  result: Payload | null;
  scheduledEventId: number;
  startedEventId: number;
  identity: string;
}

/** The activity failed and will not be retried. */
export interface ActivityTaskFailedEventAttributes {
  failure: Failure;
  scheduledEventId: number;
  startedEventId: number;
  identity: string;
  retryState: RetryState;
}

/** An activity timeout fired and no retry remains. `startedEventId` null if never started. */
export interface ActivityTaskTimedOutEventAttributes {
  failure: Failure;
  scheduledEventId: number;
  startedEventId: number | null;
  timeoutType: TimeoutType;
  retryState: RetryState;
}

/** The workflow asked to cancel an activity. */
export interface ActivityTaskCancelRequestedEventAttributes {
  scheduledEventId: number;
  workflowTaskCompletedEventId: number;
}

/** The activity acknowledged cancellation (or was cancelled before it started). */
export interface ActivityTaskCanceledEventAttributes {
  details: Payload | null;
  latestCancelRequestedEventId: number;
  scheduledEventId: number;
  startedEventId: number | null;
  identity: string;
}

/** Tag → attributes of the events in this file. */
export interface ActivityTaskEventAttributesMap {
  ActivityTaskScheduled: ActivityTaskScheduledEventAttributes;
  ActivityTaskStarted: ActivityTaskStartedEventAttributes;
  ActivityTaskCompleted: ActivityTaskCompletedEventAttributes;
  ActivityTaskFailed: ActivityTaskFailedEventAttributes;
  ActivityTaskTimedOut: ActivityTaskTimedOutEventAttributes;
  ActivityTaskCancelRequested: ActivityTaskCancelRequestedEventAttributes;
  ActivityTaskCanceled: ActivityTaskCanceledEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const activityTaskEventSchemas = [
  record('logbook.ActivityTaskScheduledEventAttributes', [
    field('activityId', 'string'),
    field('activityType', 'string'),
    field('taskQueue', 'string'),
    field('header', headerSchema),
    field('input', payloadsSchema),
    optional('scheduleToCloseTimeoutMs', 'long'),
    optional('scheduleToStartTimeoutMs', 'long'),
    optional('startToCloseTimeoutMs', 'long'),
    optional('heartbeatTimeoutMs', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
    optional('retryPolicy', retryPolicySchema),
  ]),
  record('logbook.ActivityTaskStartedEventAttributes', [
    field('scheduledEventId', 'long'),
    field('identity', 'string'),
    field('requestId', 'string'),
    field('attempt', 'int'),
    optional('lastFailure', failureSchema),
  ]),
  record('logbook.ActivityTaskCompletedEventAttributes', [
    optional('result', payloadSchema),
    field('scheduledEventId', 'long'),
    field('startedEventId', 'long'),
    field('identity', 'string'),
  ]),
  record('logbook.ActivityTaskFailedEventAttributes', [
    field('failure', failureSchema),
    field('scheduledEventId', 'long'),
    field('startedEventId', 'long'),
    field('identity', 'string'),
    field('retryState', retryStateSchema),
  ]),
  record('logbook.ActivityTaskTimedOutEventAttributes', [
    field('failure', failureSchema),
    field('scheduledEventId', 'long'),
    optional('startedEventId', 'long'),
    field('timeoutType', timeoutTypeSchema),
    field('retryState', retryStateSchema),
  ]),
  record('logbook.ActivityTaskCancelRequestedEventAttributes', [
    field('scheduledEventId', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
  ]),
  record('logbook.ActivityTaskCanceledEventAttributes', [
    optional('details', payloadSchema),
    field('latestCancelRequestedEventId', 'long'),
    field('scheduledEventId', 'long'),
    optional('startedEventId', 'long'),
    field('identity', 'string'),
  ]),
] as const;
