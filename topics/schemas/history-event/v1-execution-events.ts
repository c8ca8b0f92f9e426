/**
 * HistoryEvent v1 attributes: a run's lifecycle (start, close, continue-as-new, cancel,
 * terminate). Mirrors Temporal's `history.v1` attributes; durations are milliseconds.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record, timestampMillis } from '../avro-schema.js';
import {
  continueAsNewInitiatorSchema,
  retryStateSchema,
  type ContinueAsNewInitiator,
  type RetryState,
} from '../common/v1-enums.js';
import {
  externalInitiatorInfoSchema,
  failureSchema,
  headerSchema,
  memoSchema,
  parentExecutionInfoSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  searchAttributesSchema,
  type ExternalInitiatorInfo,
  type Failure,
  type Header,
  type Memo,
  type ParentExecutionInfo,
  type RetryPolicy,
  type SearchAttributes,
} from '../common/v1-records.js';

/** First event of every run. */
export interface WorkflowExecutionStartedEventAttributes {
  workflowType: string;
  taskQueue: string;
  input: Payload[];
  workflowExecutionTimeoutMs: number | null;
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number;
  parent: ParentExecutionInfo | null;
  /** The run this one continues (continue-as-new, retry, cron); null for a first run. */
  continuedExecutionRunId: string | null;
  initiator: ContinueAsNewInitiator | null;
  continuedFailure: Failure | null;
  lastCompletionResult: Payload | null;
  /** Run id this run was started as before any reset (equals its own run id here). */
  originalExecutionRunId: string;
  /** First run of the chain of continued runs. */
  firstExecutionRunId: string;
  identity: string;
  requestId: string;
  retryPolicy: RetryPolicy | null;
  attempt: number;
  /** Epoch ms after which the whole chain of runs times out. */
  workflowExecutionExpirationTime: number | null;
  cronSchedule: string | null;
  firstWorkflowTaskBackoffMs: number | null;
  memo: Memo;
  searchAttributes: SearchAttributes;
  header: Header;
  /**
   * Seed of the workflow's deterministic PRNG. Like every Avro `long` here it is a JS number, so
   * it must be an integer within ±(2^53 − 2) (avsc refuses anything that could lose precision).
   */
  prngSeed: number;
}

/** The run completed; `newExecutionRunId` is set when a cron schedule starts the next run. */
export interface WorkflowExecutionCompletedEventAttributes {
  result: Payload | null;
  workflowTaskCompletedEventId: number;
  newExecutionRunId: string | null;
}

/** The run failed; `newExecutionRunId` is set when a retry or cron starts the next run. */
export interface WorkflowExecutionFailedEventAttributes {
  failure: Failure;
  retryState: RetryState;
  workflowTaskCompletedEventId: number;
  newExecutionRunId: string | null;
}

/** The run (or execution) timeout fired. */
export interface WorkflowExecutionTimedOutEventAttributes {
  retryState: RetryState;
  newExecutionRunId: string | null;
}

/** The run closed and a new run of the same workflow id was started. */
export interface WorkflowExecutionContinuedAsNewEventAttributes {
  newExecutionRunId: string;
  workflowType: string;
  taskQueue: string;
  input: Payload[];
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number;
  workflowTaskCompletedEventId: number;
  backoffStartIntervalMs: number | null;
  initiator: ContinueAsNewInitiator;
  failure: Failure | null;
  lastCompletionResult: Payload | null;
  header: Header;
  memo: Memo;
  searchAttributes: SearchAttributes;
}

/** Someone asked the run to cancel; the workflow code decides what to do. */
export interface WorkflowExecutionCancelRequestedEventAttributes {
  cause: string;
  /** Set when another workflow asked (RequestCancelExternalWorkflowExecution). */
  externalInitiator: ExternalInitiatorInfo | null;
  identity: string;
}

/** The workflow accepted cancellation and closed. */
export interface WorkflowExecutionCanceledEventAttributes {
  workflowTaskCompletedEventId: number;
  details: Payload | null;
}

/** The run was terminated from outside; no workflow code ran. */
export interface WorkflowExecutionTerminatedEventAttributes {
  reason: string;
  details: Payload | null;
  identity: string;
}

/** Tag → attributes of the events in this file. */
export interface ExecutionEventAttributesMap {
  WorkflowExecutionStarted: WorkflowExecutionStartedEventAttributes;
  WorkflowExecutionCompleted: WorkflowExecutionCompletedEventAttributes;
  WorkflowExecutionFailed: WorkflowExecutionFailedEventAttributes;
  WorkflowExecutionTimedOut: WorkflowExecutionTimedOutEventAttributes;
  WorkflowExecutionContinuedAsNew: WorkflowExecutionContinuedAsNewEventAttributes;
  WorkflowExecutionCancelRequested: WorkflowExecutionCancelRequestedEventAttributes;
  WorkflowExecutionCanceled: WorkflowExecutionCanceledEventAttributes;
  WorkflowExecutionTerminated: WorkflowExecutionTerminatedEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const executionEventSchemas = [
  record('logbook.WorkflowExecutionStartedEventAttributes', [
    field('workflowType', 'string'),
    field('taskQueue', 'string'),
    field('input', payloadsSchema),
    optional('workflowExecutionTimeoutMs', 'long'),
    optional('workflowRunTimeoutMs', 'long'),
    field('workflowTaskTimeoutMs', 'long'),
    optional('parent', parentExecutionInfoSchema),
    optional('continuedExecutionRunId', 'string'),
    optional('initiator', continueAsNewInitiatorSchema),
    optional('continuedFailure', failureSchema),
    optional('lastCompletionResult', payloadSchema),
    field('originalExecutionRunId', 'string'),
    field('firstExecutionRunId', 'string'),
    field('identity', 'string'),
    field('requestId', 'string'),
    optional('retryPolicy', retryPolicySchema),
    field('attempt', 'int'),
    optional('workflowExecutionExpirationTime', timestampMillis),
    optional('cronSchedule', 'string'),
    optional('firstWorkflowTaskBackoffMs', 'long'),
    field('memo', memoSchema),
    field('searchAttributes', searchAttributesSchema),
    field('header', headerSchema),
    field('prngSeed', 'long'),
  ]),
  record('logbook.WorkflowExecutionCompletedEventAttributes', [
    optional('result', payloadSchema),
    field('workflowTaskCompletedEventId', 'long'),
    optional('newExecutionRunId', 'string'),
  ]),
  record('logbook.WorkflowExecutionFailedEventAttributes', [
    field('failure', failureSchema),
    field('retryState', retryStateSchema),
    field('workflowTaskCompletedEventId', 'long'),
    optional('newExecutionRunId', 'string'),
  ]),
  record('logbook.WorkflowExecutionTimedOutEventAttributes', [
    field('retryState', retryStateSchema),
    optional('newExecutionRunId', 'string'),
  ]),
  record('logbook.WorkflowExecutionContinuedAsNewEventAttributes', [
    field('newExecutionRunId', 'string'),
    field('workflowType', 'string'),
    field('taskQueue', 'string'),
    field('input', payloadsSchema),
    optional('workflowRunTimeoutMs', 'long'),
    field('workflowTaskTimeoutMs', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
    optional('backoffStartIntervalMs', 'long'),
    field('initiator', continueAsNewInitiatorSchema),
    optional('failure', failureSchema),
    optional('lastCompletionResult', payloadSchema),
    field('header', headerSchema),
    field('memo', memoSchema),
    field('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.WorkflowExecutionCancelRequestedEventAttributes', [
    field('cause', 'string'),
    optional('externalInitiator', externalInitiatorInfoSchema),
    field('identity', 'string'),
  ]),
  record('logbook.WorkflowExecutionCanceledEventAttributes', [
    field('workflowTaskCompletedEventId', 'long'),
    optional('details', payloadSchema),
  ]),
  record('logbook.WorkflowExecutionTerminatedEventAttributes', [
    field('reason', 'string'),
    optional('details', payloadSchema),
    field('identity', 'string'),
  ]),
] as const;
