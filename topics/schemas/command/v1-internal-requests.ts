/**
 * Command v1: bodies written only by processors to `commands.internal` — answers between
 * shards about children and external signals/cancels. The envelope targets the run being told
 * (the parent, or the initiator).
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record } from '../avro-schema.js';
import {
  cancelExternalWorkflowExecutionFailedCauseSchema,
  retryStateSchema,
  signalExternalWorkflowExecutionFailedCauseSchema,
  startChildWorkflowExecutionFailedCauseSchema,
  workflowExecutionStatusSchema,
  type CancelExternalWorkflowExecutionFailedCause,
  type RetryState,
  type SignalExternalWorkflowExecutionFailedCause,
  type StartChildWorkflowExecutionFailedCause,
  type WorkflowExecutionStatus,
} from '../common/v1-enums.js';
import {
  failureSchema,
  payloadSchema,
  workflowExecutionSchema,
  type Failure,
  type WorkflowExecution,
} from '../common/v1-records.js';

/** Tag → body of the processor-to-processor commands. */
export interface InternalRequestMap {
  /** Child → parent: the child run started (parent records ChildWorkflowExecutionStarted). */
  RecordChildExecutionStarted: {
    initiatedEventId: number;
    namespace: string;
    workflowExecution: WorkflowExecution;
    workflowType: string;
  };
  /** Child's shard → parent: the child could not be started. */
  RecordChildExecutionStartFailed: {
    initiatedEventId: number;
    namespace: string;
    workflowId: string;
    workflowType: string;
    cause: StartChildWorkflowExecutionFailedCause;
  };
  /** Child → parent: the child closed (Completed, Failed, Canceled, Terminated or TimedOut). */
  RecordChildExecutionCompleted: {
    initiatedEventId: number;
    namespace: string;
    workflowExecution: WorkflowExecution;
    workflowType: string;
    status: WorkflowExecutionStatus;
    result: Payload | null;
    /** Cancellation details when `status` is Canceled. */
    details: Payload | null;
    failure: Failure | null;
    retryState: RetryState | null;
  };
  /** Target → initiator: the signal was delivered (cause null) or not. */
  RecordSignalExternalWorkflowExecutionResult: {
    initiatedEventId: number;
    namespace: string;
    workflowExecution: WorkflowExecution;
    failureCause: SignalExternalWorkflowExecutionFailedCause | null;
  };
  /** Target → initiator: the cancellation request was recorded (cause null) or not. */
  RecordRequestCancelExternalWorkflowExecutionResult: {
    initiatedEventId: number;
    namespace: string;
    workflowExecution: WorkflowExecution;
    failureCause: CancelExternalWorkflowExecutionFailedCause | null;
  };
}

/** Avro records of this file's bodies, in frozen union order. */
export const internalRequestSchemas = [
  record('logbook.RecordChildExecutionStartedRequest', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('workflowType', 'string'),
  ]),
  record('logbook.RecordChildExecutionStartFailedRequest', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowId', 'string'),
    field('workflowType', 'string'),
    field('cause', startChildWorkflowExecutionFailedCauseSchema),
  ]),
  record('logbook.RecordChildExecutionCompletedRequest', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    field('workflowType', 'string'),
    field('status', workflowExecutionStatusSchema),
    optional('result', payloadSchema),
    optional('details', payloadSchema),
    optional('failure', failureSchema),
    optional('retryState', retryStateSchema),
  ]),
  record('logbook.RecordSignalExternalWorkflowExecutionResultRequest', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    optional('failureCause', signalExternalWorkflowExecutionFailedCauseSchema),
  ]),
  record('logbook.RecordRequestCancelExternalWorkflowExecutionResultRequest', [
    field('initiatedEventId', 'long'),
    field('namespace', 'string'),
    field('workflowExecution', workflowExecutionSchema),
    optional('failureCause', cancelExternalWorkflowExecutionFailedCauseSchema),
  ]),
] as const;
