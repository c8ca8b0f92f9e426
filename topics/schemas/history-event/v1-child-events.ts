/**
 * HistoryEvent v1 attributes: child workflows, as recorded in the parent's history.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record } from '../avro-schema.js';
import {
  parentClosePolicySchema,
  retryStateSchema,
  startChildWorkflowExecutionFailedCauseSchema,
  workflowIdReusePolicySchema,
  type ParentClosePolicy,
  type RetryState,
  type StartChildWorkflowExecutionFailedCause,
  type WorkflowIdReusePolicy,
} from '../common/v1-enums.js';
import {
  failureSchema,
  headerSchema,
  memoSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  searchAttributesSchema,
  workflowExecutionSchema,
  type Failure,
  type Header,
  type Memo,
  type RetryPolicy,
  type SearchAttributes,
  type WorkflowExecution,
} from '../common/v1-records.js';

/** The parent asked to start a child. */
export interface StartChildWorkflowExecutionInitiatedEventAttributes {
  namespace: string;
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  input: Payload[];
  workflowExecutionTimeoutMs: number | null;
  workflowRunTimeoutMs: number | null;
  workflowTaskTimeoutMs: number | null;
  parentClosePolicy: ParentClosePolicy;
  workflowTaskCompletedEventId: number;
  workflowIdReusePolicy: WorkflowIdReusePolicy;
  retryPolicy: RetryPolicy | null;
  cronSchedule: string | null;
  header: Header;
  memo: Memo;
  searchAttributes: SearchAttributes;
}

/** The child could not be started. */
export interface StartChildWorkflowExecutionFailedEventAttributes {
  namespace: string;
  workflowId: string;
  workflowType: string;
  cause: StartChildWorkflowExecutionFailedCause;
  initiatedEventId: number;
  workflowTaskCompletedEventId: number;
}

/** The child run started. */
export interface ChildWorkflowExecutionStartedEventAttributes {
  namespace: string;
  initiatedEventId: number;
  workflowExecution: WorkflowExecution;
  workflowType: string;
  header: Header;
}

/** Fields every child-closed event carries. */
export interface ChildWorkflowExecutionClosedAttributes {
  namespace: string;
  workflowExecution: WorkflowExecution;
  workflowType: string;
  initiatedEventId: number;
  startedEventId: number;
}

/** The child completed. */
export interface ChildWorkflowExecutionCompletedEventAttributes extends ChildWorkflowExecutionClosedAttributes {
  result: Payload | null;
}

/** The child failed. */
export interface ChildWorkflowExecutionFailedEventAttributes extends ChildWorkflowExecutionClosedAttributes {
  failure: Failure;
  retryState: RetryState;
}

/** The child was cancelled. */
export interface ChildWorkflowExecutionCanceledEventAttributes extends ChildWorkflowExecutionClosedAttributes {
  details: Payload | null;
}

/** The child timed out. */
export interface ChildWorkflowExecutionTimedOutEventAttributes extends ChildWorkflowExecutionClosedAttributes {
  retryState: RetryState;
}

/** The child was terminated. */
export type ChildWorkflowExecutionTerminatedEventAttributes = ChildWorkflowExecutionClosedAttributes;

/** Tag → attributes of the events in this file. */
export interface ChildEventAttributesMap {
  StartChildWorkflowExecutionInitiated: StartChildWorkflowExecutionInitiatedEventAttributes;
  StartChildWorkflowExecutionFailed: StartChildWorkflowExecutionFailedEventAttributes;
  ChildWorkflowExecutionStarted: ChildWorkflowExecutionStartedEventAttributes;
  ChildWorkflowExecutionCompleted: ChildWorkflowExecutionCompletedEventAttributes;
  ChildWorkflowExecutionFailed: ChildWorkflowExecutionFailedEventAttributes;
  ChildWorkflowExecutionCanceled: ChildWorkflowExecutionCanceledEventAttributes;
  ChildWorkflowExecutionTimedOut: ChildWorkflowExecutionTimedOutEventAttributes;
  ChildWorkflowExecutionTerminated: ChildWorkflowExecutionTerminatedEventAttributes;
}

const closedFields = [
  field('namespace', 'string'),
  field('workflowExecution', workflowExecutionSchema),
  field('workflowType', 'string'),
  field('initiatedEventId', 'long'),
  field('startedEventId', 'long'),
] as const;

/** Avro records of this file's events, in their frozen union order. */
export const childEventSchemas = [
  record('logbook.StartChildWorkflowExecutionInitiatedEventAttributes', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('workflowType', 'string'),
    field('taskQueue', 'string'),
    field('input', payloadsSchema),
    optional('workflowExecutionTimeoutMs', 'long'),
    optional('workflowRunTimeoutMs', 'long'),
    optional('workflowTaskTimeoutMs', 'long'),
    field('parentClosePolicy', parentClosePolicySchema),
    field('workflowTaskCompletedEventId', 'long'),
    field('workflowIdReusePolicy', workflowIdReusePolicySchema),
    optional('retryPolicy', retryPolicySchema),
    optional('cronSchedule', 'string'),
    field('header', headerSchema),
    field('memo', memoSchema),
    field('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.StartChildWorkflowExecutionFailedEventAttributes', [
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('workflowType', 'string'),
    field('cause', startChildWorkflowExecutionFailedCauseSchema),
    field('initiatedEventId', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
  ]),
  record('logbook.ChildWorkflowExecutionStartedEventAttributes', [
    field('namespace', 'string'),
    field('initiatedEventId', 'long'),
    field('workflowExecution', workflowExecutionSchema),
    field('workflowType', 'string'),
    field('header', headerSchema),
  ]),
  record('logbook.ChildWorkflowExecutionCompletedEventAttributes', [
    ...closedFields,
    optional('result', payloadSchema),
  ]),
  record('logbook.ChildWorkflowExecutionFailedEventAttributes', [
    ...closedFields,
    field('failure', failureSchema),
    field('retryState', retryStateSchema),
  ]),
  record('logbook.ChildWorkflowExecutionCanceledEventAttributes', [
    ...closedFields,
    optional('details', payloadSchema),
  ]),
  record('logbook.ChildWorkflowExecutionTimedOutEventAttributes', [
    ...closedFields,
    field('retryState', retryStateSchema),
  ]),
  record('logbook.ChildWorkflowExecutionTerminatedEventAttributes', [...closedFields]),
] as const;
