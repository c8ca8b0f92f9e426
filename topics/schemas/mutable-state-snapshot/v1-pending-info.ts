/**
 * MutableStateSnapshot v1: the records for a run's in-flight work (activities, timers, the
 * workflow task, children, external requests, updates). Times are epoch ms, durations ms.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record, timestampMillis } from '../avro-schema.js';
import {
  parentClosePolicySchema,
  updateWorkflowExecutionLifecycleStageSchema,
  type ParentClosePolicy,
  type UpdateWorkflowExecutionLifecycleStage,
} from '../common/v1-enums.js';
import {
  failureSchema,
  payloadSchema,
  replyToSchema,
  retryPolicySchema,
  updateRequestSchema,
  type Failure,
  type ReplyTo,
  type RetryPolicy,
  type UpdateRequest,
} from '../common/v1-records.js';

/**
 * A scheduled activity. Retries do not grow history, so the attempt, last failure and heartbeat
 * live here. Input and header are not copied: they are in the ActivityTaskScheduled event.
 */
export interface PendingActivityInfo {
  scheduledEventId: number;
  activityId: string;
  activityType: string;
  taskQueue: string;
  attempt: number;
  scheduledTime: number;
  currentAttemptScheduledTime: number;
  startedTime: number | null;
  startedIdentity: string | null;
  startedRequestId: string | null;
  lastHeartbeatTime: number | null;
  lastHeartbeatDetails: Payload | null;
  lastFailure: Failure | null;
  scheduleToCloseTimeoutMs: number | null;
  scheduleToStartTimeoutMs: number | null;
  startToCloseTimeoutMs: number | null;
  heartbeatTimeoutMs: number | null;
  retryPolicy: RetryPolicy | null;
  /** Schedule-to-close deadline across all attempts; no retry is scheduled past it. */
  retryDeadline: number | null;
  cancelRequested: boolean;
  cancelRequestedEventId: number | null;
}
/** Avro schema of {@link PendingActivityInfo}. */
export const pendingActivityInfoSchema = record('logbook.PendingActivityInfo', [
  field('scheduledEventId', 'long'),
  field('activityId', 'string'),
  field('activityType', 'string'),
  field('taskQueue', 'string'),
  field('attempt', 'int'),
  field('scheduledTime', timestampMillis),
  field('currentAttemptScheduledTime', timestampMillis),
  optional('startedTime', timestampMillis),
  optional('startedIdentity', 'string'),
  optional('startedRequestId', 'string'),
  optional('lastHeartbeatTime', timestampMillis),
  optional('lastHeartbeatDetails', payloadSchema),
  optional('lastFailure', failureSchema),
  optional('scheduleToCloseTimeoutMs', 'long'),
  optional('scheduleToStartTimeoutMs', 'long'),
  optional('startToCloseTimeoutMs', 'long'),
  optional('heartbeatTimeoutMs', 'long'),
  optional('retryPolicy', retryPolicySchema),
  optional('retryDeadline', timestampMillis),
  field('cancelRequested', 'boolean'),
  optional('cancelRequestedEventId', 'long'),
]);

/** A started timer. */
export interface PendingTimerInfo {
  timerId: string;
  startedEventId: number;
  expiryTime: number;
}
/** Avro schema of {@link PendingTimerInfo}. */
export const pendingTimerInfoSchema = record('logbook.PendingTimerInfo', [
  field('timerId', 'string'),
  field('startedEventId', 'long'),
  field('expiryTime', timestampMillis),
]);

/** The run's scheduled (and possibly claimed) workflow task; at most one at a time. */
export interface PendingWorkflowTaskInfo {
  scheduledEventId: number;
  scheduledTime: number;
  attempt: number;
  taskQueue: string;
  startToCloseTimeoutMs: number;
  startedEventId: number | null;
  startedTime: number | null;
  startedIdentity: string | null;
  startedRequestId: string | null;
}
/** Avro schema of {@link PendingWorkflowTaskInfo}. */
export const pendingWorkflowTaskInfoSchema = record('logbook.PendingWorkflowTaskInfo', [
  field('scheduledEventId', 'long'),
  field('scheduledTime', timestampMillis),
  field('attempt', 'int'),
  field('taskQueue', 'string'),
  field('startToCloseTimeoutMs', 'long'),
  optional('startedEventId', 'long'),
  optional('startedTime', timestampMillis),
  optional('startedIdentity', 'string'),
  optional('startedRequestId', 'string'),
]);

/** A child that was initiated and has not closed. */
export interface PendingChildInfo {
  initiatedEventId: number;
  startedEventId: number | null;
  namespace: string;
  workflowId: string;
  runId: string | null;
  workflowType: string;
  parentClosePolicy: ParentClosePolicy;
}
/** Avro schema of {@link PendingChildInfo}. */
export const pendingChildInfoSchema = record('logbook.PendingChildInfo', [
  field('initiatedEventId', 'long'),
  optional('startedEventId', 'long'),
  field('namespace', 'string'),
  field('workflowId', 'string'),
  optional('runId', 'string'),
  field('workflowType', 'string'),
  field('parentClosePolicy', parentClosePolicySchema),
]);

/** A signal or cancellation sent to another run, awaiting its answer. */
export interface PendingExternalRequestInfo {
  initiatedEventId: number;
  namespace: string;
  workflowId: string;
  runId: string | null;
}
/** Avro schema of {@link PendingExternalRequestInfo}. */
export const pendingExternalRequestInfoSchema = record('logbook.PendingExternalRequestInfo', [
  field('initiatedEventId', 'long'),
  field('namespace', 'string'),
  field('workflowId', 'string'),
  optional('runId', 'string'),
]);

/** An update admitted but not completed (nothing is in history before it is accepted). */
export interface PendingUpdateInfo {
  request: UpdateRequest;
  admittedTime: number;
  acceptedEventId: number | null;
  waitForStage: UpdateWorkflowExecutionLifecycleStage;
  replyTo: ReplyTo | null;
}
/** Avro schema of {@link PendingUpdateInfo}. */
export const pendingUpdateInfoSchema = record('logbook.PendingUpdateInfo', [
  field('request', updateRequestSchema),
  field('admittedTime', timestampMillis),
  optional('acceptedEventId', 'long'),
  field('waitForStage', updateWorkflowExecutionLifecycleStageSchema),
  optional('replyTo', replyToSchema),
]);

/** A caller waiting for the run's result (AwaitWorkflowExecutionResult). */
export interface ResultWaiter {
  replyTo: ReplyTo;
  followRuns: boolean;
}
/** Avro schema of {@link ResultWaiter}. */
export const resultWaiterSchema = record('logbook.ResultWaiter', [
  field('replyTo', replyToSchema),
  field('followRuns', 'boolean'),
]);
