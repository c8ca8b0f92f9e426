/**
 * HistoryEvent v1 attributes: signals and cancellation requests a run sends to other runs.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, record } from '../avro-schema.js';
import {
  cancelExternalWorkflowExecutionFailedCauseSchema,
  signalExternalWorkflowExecutionFailedCauseSchema,
  type CancelExternalWorkflowExecutionFailedCause,
  type SignalExternalWorkflowExecutionFailedCause,
} from '../common/v1-enums.js';
import {
  headerSchema,
  payloadsSchema,
  workflowExecutionSchema,
  type Header,
  type WorkflowExecution,
} from '../common/v1-records.js';

/** The workflow asked to signal another run. */
export interface SignalExternalWorkflowExecutionInitiatedEventAttributes {
  workflowTaskCompletedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
  signalName: string;
  input: Payload[];
  /** Only deliver if the target is a child of this run. */
  childWorkflowOnly: boolean;
  header: Header;
}

/** The signal could not be delivered. */
export interface SignalExternalWorkflowExecutionFailedEventAttributes {
  cause: SignalExternalWorkflowExecutionFailedCause;
  workflowTaskCompletedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
  initiatedEventId: number;
}

/** The target run recorded the signal. */
export interface ExternalWorkflowExecutionSignaledEventAttributes {
  initiatedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
}

/** The workflow asked to cancel another run. */
export interface RequestCancelExternalWorkflowExecutionInitiatedEventAttributes {
  workflowTaskCompletedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
  childWorkflowOnly: boolean;
  reason: string;
}

/** The cancellation request could not be delivered. */
export interface RequestCancelExternalWorkflowExecutionFailedEventAttributes {
  cause: CancelExternalWorkflowExecutionFailedCause;
  workflowTaskCompletedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
  initiatedEventId: number;
}

/** The target run recorded the cancellation request. */
export interface ExternalWorkflowExecutionCancelRequestedEventAttributes {
  initiatedEventId: number;
  namespace: string;
  workflowExecution: WorkflowExecution;
}

/** Tag → attributes of the events in this file. */
export interface ExternalEventAttributesMap {
  SignalExternalWorkflowExecutionInitiated: SignalExternalWorkflowExecutionInitiatedEventAttributes;
  SignalExternalWorkflowExecutionFailed: SignalExternalWorkflowExecutionFailedEventAttributes;
  ExternalWorkflowExecutionSignaled: ExternalWorkflowExecutionSignaledEventAttributes;
  RequestCancelExternalWorkflowExecutionInitiated: RequestCancelExternalWorkflowExecutionInitiatedEventAttributes;
  RequestCancelExternalWorkflowExecutionFailed: RequestCancelExternalWorkflowExecutionFailedEventAttributes;
  ExternalWorkflowExecutionCancelRequested: ExternalWorkflowExecutionCancelRequestedEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const externalEventSchemas = [
  record('logbook.SignalExternalWorkflowExecutionInitiatedEventAttributes', [
    field('workflowTaskCompletedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('signalName', 'string'),
    field('input', payloadsSchema),
    field('childWorkflowOnly', 'boolean'),
    field('header', headerSchema),
  ]),
  record('logbook.SignalExternalWorkflowExecutionFailedEventAttributes', [
    field('cause', signalExternalWorkflowExecutionFailedCauseSchema),
    field('workflowTaskCompletedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('initiatedEventId', 'long'),
  ]),
  record('logbook.ExternalWorkflowExecutionSignaledEventAttributes', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
  ]),
  record('logbook.RequestCancelExternalWorkflowExecutionInitiatedEventAttributes', [
    field('workflowTaskCompletedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('childWorkflowOnly', 'boolean'),
    field('reason', 'string'),
  ]),
  record('logbook.RequestCancelExternalWorkflowExecutionFailedEventAttributes', [
    field('cause', cancelExternalWorkflowExecutionFailedCauseSchema),
    field('workflowTaskCompletedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('initiatedEventId', 'long'),
  ]),
  record('logbook.ExternalWorkflowExecutionCancelRequestedEventAttributes', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
  ]),
] as const;
