/**
 * MutableStateSnapshot v1 — the value of `logbook.state` under key `ns/workflowId` (and closed
 * runs): everything the shard needs to apply the next input to a run without reading history.
 * Generic for now; the state machine's owners will refine it in v2.
 * @module
 */
import { arrayOf, field, optional, record, timestampMillis } from '../avro-schema.js';
import { workflowExecutionStatusSchema, type WorkflowExecutionStatus } from '../common/v1-enums.js';
import {
  memoSchema,
  parentExecutionInfoSchema,
  retryPolicySchema,
  searchAttributesSchema,
  type Memo,
  type ParentExecutionInfo,
  type RetryPolicy,
  type SearchAttributes,
} from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { historyEventAttributesSchemaV1, type HistoryEventAttributes } from '../history-event/v1.js';
import {
  pendingActivityInfoSchema,
  pendingChildInfoSchema,
  pendingExternalRequestInfoSchema,
  pendingTimerInfoSchema,
  pendingUpdateInfoSchema,
  pendingWorkflowTaskInfoSchema,
  resultWaiterSchema,
  type PendingActivityInfo,
  type PendingChildInfo,
  type PendingExternalRequestInfo,
  type PendingTimerInfo,
  type PendingUpdateInfo,
  type PendingWorkflowTaskInfo,
  type ResultWaiter,
} from './v1-pending-info.js';

/** Identity, status, times and event counters of a run. */
export interface ExecutionInfo {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  startTime: number;
  /** When the first workflow task may run (start time + start delay / cron / retry backoff). */
  executionTime: number;
  closeTime: number | null;
  workflowExecutionTimeoutMs: number | null;
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number;
  workflowExecutionExpirationTime: number | null;
  workflowRunExpirationTime: number | null;
  /** Id of the last event written; the state machine never emits an id at or below it. */
  lastEventId: number;
  nextEventId: number;
  /** Time of the last event; shard time never goes below it. */
  lastEventTime: number;
  lastWorkflowTaskCompletedEventId: number | null;
  firstExecutionRunId: string;
  parent: ParentExecutionInfo | null;
  attempt: number;
  retryPolicy: RetryPolicy | null;
  cronSchedule: string | null;
  cancelRequested: boolean;
  historySizeBytes: number;
}

/** An event accepted while a workflow task was in flight, appended when it completes. */
export interface BufferedEvent {
  eventTime: number;
  attributes: HistoryEventAttributes;
}

/** The mutable state of one run. */
export interface MutableStateSnapshot {
  executionInfo: ExecutionInfo;
  pendingActivities: PendingActivityInfo[];
  pendingTimers: PendingTimerInfo[];
  pendingWorkflowTask: PendingWorkflowTaskInfo | null;
  bufferedEvents: BufferedEvent[];
  /** Recent request ids (bounded window, oldest first) for deduplicating starts, signals, updates. */
  requestIds: string[];
  pendingChildren: PendingChildInfo[];
  pendingSignalExternals: PendingExternalRequestInfo[];
  pendingCancelExternals: PendingExternalRequestInfo[];
  pendingUpdates: PendingUpdateInfo[];
  resultWaiters: ResultWaiter[];
  searchAttributes: SearchAttributes;
  memo: Memo;
}

const executionInfoSchema = record('logbook.ExecutionInfo', [
  field('namespace', 'string'),
  field('workflowId', 'string'),
  field('runId', 'string'),
  field('workflowType', 'string'),
  field('taskQueue', 'string'),
  field('status', workflowExecutionStatusSchema),
  field('startTime', timestampMillis),
  field('executionTime', timestampMillis),
  optional('closeTime', timestampMillis),
  optional('workflowExecutionTimeoutMs', 'long'),
  optional('workflowRunTimeoutMs', 'long'),
  field('workflowTaskTimeoutMs', 'long'),
  optional('workflowExecutionExpirationTime', timestampMillis),
  optional('workflowRunExpirationTime', timestampMillis),
  field('lastEventId', 'long'),
  field('nextEventId', 'long'),
  field('lastEventTime', timestampMillis),
  optional('lastWorkflowTaskCompletedEventId', 'long'),
  field('firstExecutionRunId', 'string'),
  optional('parent', parentExecutionInfoSchema),
  field('attempt', 'int'),
  optional('retryPolicy', retryPolicySchema),
  optional('cronSchedule', 'string'),
  field('cancelRequested', 'boolean'),
  field('historySizeBytes', 'long'),
]);

/** Avro schema of `logbook.MutableStateSnapshot`, version 1. Frozen. */
export const mutableStateSnapshotSchemaV1 = defineSchema(
  record(
    'logbook.MutableStateSnapshot',
    [
      field('executionInfo', executionInfoSchema),
      field('pendingActivities', arrayOf(pendingActivityInfoSchema)),
      field('pendingTimers', arrayOf(pendingTimerInfoSchema)),
      optional('pendingWorkflowTask', pendingWorkflowTaskInfoSchema),
      field(
        'bufferedEvents',
        arrayOf(
          record('logbook.BufferedEvent', [
            field('eventTime', timestampMillis),
            field('attributes', historyEventAttributesSchemaV1),
          ]),
        ),
      ),
      field('requestIds', arrayOf('string')),
      field('pendingChildren', arrayOf(pendingChildInfoSchema)),
      field('pendingSignalExternals', arrayOf(pendingExternalRequestInfoSchema)),
      field('pendingCancelExternals', arrayOf(pendingExternalRequestInfoSchema)),
      field('pendingUpdates', arrayOf(pendingUpdateInfoSchema)),
      field('resultWaiters', arrayOf(resultWaiterSchema)),
      field('searchAttributes', searchAttributesSchema),
      field('memo', memoSchema),
    ],
    'The mutable state of one workflow run, as the shard processor restores it.',
  ),
);
