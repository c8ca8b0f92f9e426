/**
 * Enums shared by the v1 schemas, named as Temporal names them (without the proto prefixes).
 * Each comes as a symbol tuple (feeds the Avro enum), a const object and a union type.
 * Frozen: a new symbol means a new schema version of every record that uses the enum.
 * @module
 */
import { enumOf, symbolsObject } from '../avro-schema.js';

const workflowIdReusePolicySymbols = ['AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate'] as const;
/** What a start does when a closed run with the same workflow id exists. */
export const WorkflowIdReusePolicy = symbolsObject(workflowIdReusePolicySymbols);
/** @see WorkflowIdReusePolicy */
export type WorkflowIdReusePolicy = (typeof workflowIdReusePolicySymbols)[number];
/** Avro schema of {@link WorkflowIdReusePolicy}. */
export const workflowIdReusePolicySchema = enumOf('logbook.WorkflowIdReusePolicy', workflowIdReusePolicySymbols);

const workflowIdConflictPolicySymbols = ['Fail', 'UseExisting', 'TerminateExisting'] as const;
/** What a start does when an open run with the same workflow id exists. */
export const WorkflowIdConflictPolicy = symbolsObject(workflowIdConflictPolicySymbols);
/** @see WorkflowIdConflictPolicy */
export type WorkflowIdConflictPolicy = (typeof workflowIdConflictPolicySymbols)[number];
/** Avro schema of {@link WorkflowIdConflictPolicy}. */
export const workflowIdConflictPolicySchema = enumOf(
  'logbook.WorkflowIdConflictPolicy',
  workflowIdConflictPolicySymbols,
);

const parentClosePolicySymbols = ['Terminate', 'Abandon', 'RequestCancel'] as const;
/** What happens to a child when its parent closes. */
export const ParentClosePolicy = symbolsObject(parentClosePolicySymbols);
/** @see ParentClosePolicy */
export type ParentClosePolicy = (typeof parentClosePolicySymbols)[number];
/** Avro schema of {@link ParentClosePolicy}. */
export const parentClosePolicySchema = enumOf('logbook.ParentClosePolicy', parentClosePolicySymbols);

const continueAsNewInitiatorSymbols = ['Workflow', 'Retry', 'CronSchedule'] as const;
/** Why a run continued as a new run. */
export const ContinueAsNewInitiator = symbolsObject(continueAsNewInitiatorSymbols);
/** @see ContinueAsNewInitiator */
export type ContinueAsNewInitiator = (typeof continueAsNewInitiatorSymbols)[number];
/** Avro schema of {@link ContinueAsNewInitiator}. */
export const continueAsNewInitiatorSchema = enumOf('logbook.ContinueAsNewInitiator', continueAsNewInitiatorSymbols);

const retryStateSymbols = [
  'InProgress',
  'NonRetryableFailure',
  'Timeout',
  'MaximumAttemptsReached',
  'RetryPolicyNotSet',
  'InternalServerError',
  'CancelRequested',
] as const;
/** Why an activity or workflow stopped retrying (or that it still is). */
export const RetryState = symbolsObject(retryStateSymbols);
/** @see RetryState */
export type RetryState = (typeof retryStateSymbols)[number];
/** Avro schema of {@link RetryState}. */
export const retryStateSchema = enumOf('logbook.RetryState', retryStateSymbols);

const timeoutTypeSymbols = ['StartToClose', 'ScheduleToStart', 'ScheduleToClose', 'Heartbeat'] as const;
/** Which timeout fired. */
export const TimeoutType = symbolsObject(timeoutTypeSymbols);
/** @see TimeoutType */
export type TimeoutType = (typeof timeoutTypeSymbols)[number];
/** Avro schema of {@link TimeoutType}. */
export const timeoutTypeSchema = enumOf('logbook.TimeoutType', timeoutTypeSymbols);

const workflowExecutionStatusSymbols = [
  'Running',
  'Completed',
  'Failed',
  'Canceled',
  'Terminated',
  'ContinuedAsNew',
  'TimedOut',
] as const;
/** Status of a run. */
export const WorkflowExecutionStatus = symbolsObject(workflowExecutionStatusSymbols);
/** @see WorkflowExecutionStatus */
export type WorkflowExecutionStatus = (typeof workflowExecutionStatusSymbols)[number];
/** Avro schema of {@link WorkflowExecutionStatus}. */
export const workflowExecutionStatusSchema = enumOf(
  'logbook.WorkflowExecutionStatus',
  workflowExecutionStatusSymbols,
);

const workflowTaskFailedCauseSymbols = [
  'UnhandledCommand',
  'BadScheduleActivityAttributes',
  'BadRequestCancelActivityAttributes',
  'BadStartTimerAttributes',
  'BadCancelTimerAttributes',
  'BadRecordMarkerAttributes',
  'BadCompleteWorkflowExecutionAttributes',
  'BadFailWorkflowExecutionAttributes',
  'BadCancelWorkflowExecutionAttributes',
  'BadRequestCancelExternalWorkflowExecutionAttributes',
  'BadContinueAsNewAttributes',
  'StartTimerDuplicateId',
  'WorkflowWorkerUnhandledFailure',
  'BadSignalWorkflowExecutionAttributes',
  'BadStartChildExecutionAttributes',
  'BadSearchAttributes',
  'ScheduleActivityDuplicateId',
  'NonDeterministicError',
  'BadModifyWorkflowPropertiesAttributes',
  'BadUpdateWorkflowExecutionMessage',
  'UnhandledUpdate',
  'PayloadTooLarge',
] as const;
/**
 * Why a workflow task failed (Temporal's causes, plus `PayloadTooLarge` for an output over the
 * record size limit).
 */
export const WorkflowTaskFailedCause = symbolsObject(workflowTaskFailedCauseSymbols);
/** @see WorkflowTaskFailedCause */
export type WorkflowTaskFailedCause = (typeof workflowTaskFailedCauseSymbols)[number];
/** Avro schema of {@link WorkflowTaskFailedCause}. */
export const workflowTaskFailedCauseSchema = enumOf('logbook.WorkflowTaskFailedCause', workflowTaskFailedCauseSymbols);

const startChildFailedCauseSymbols = ['WorkflowAlreadyExists', 'NamespaceNotFound'] as const;
/** Why a child workflow could not be started. */
export const StartChildWorkflowExecutionFailedCause = symbolsObject(startChildFailedCauseSymbols);
/** @see StartChildWorkflowExecutionFailedCause */
export type StartChildWorkflowExecutionFailedCause = (typeof startChildFailedCauseSymbols)[number];
/** Avro schema of {@link StartChildWorkflowExecutionFailedCause}. */
export const startChildWorkflowExecutionFailedCauseSchema = enumOf(
  'logbook.StartChildWorkflowExecutionFailedCause',
  startChildFailedCauseSymbols,
);

const signalExternalFailedCauseSymbols = [
  'ExternalWorkflowExecutionNotFound',
  'NamespaceNotFound',
  'SignalCountLimitExceeded',
] as const;
/** Why a signal to another workflow could not be delivered. */
export const SignalExternalWorkflowExecutionFailedCause = symbolsObject(signalExternalFailedCauseSymbols);
/** @see SignalExternalWorkflowExecutionFailedCause */
export type SignalExternalWorkflowExecutionFailedCause = (typeof signalExternalFailedCauseSymbols)[number];
/** Avro schema of {@link SignalExternalWorkflowExecutionFailedCause}. */
export const signalExternalWorkflowExecutionFailedCauseSchema = enumOf(
  'logbook.SignalExternalWorkflowExecutionFailedCause',
  signalExternalFailedCauseSymbols,
);

const cancelExternalFailedCauseSymbols = ['ExternalWorkflowExecutionNotFound', 'NamespaceNotFound'] as const;
/** Why a cancellation request to another workflow could not be delivered. */
export const CancelExternalWorkflowExecutionFailedCause = symbolsObject(cancelExternalFailedCauseSymbols);
/** @see CancelExternalWorkflowExecutionFailedCause */
export type CancelExternalWorkflowExecutionFailedCause = (typeof cancelExternalFailedCauseSymbols)[number];
/** Avro schema of {@link CancelExternalWorkflowExecutionFailedCause}. */
export const cancelExternalWorkflowExecutionFailedCauseSchema = enumOf(
  'logbook.CancelExternalWorkflowExecutionFailedCause',
  cancelExternalFailedCauseSymbols,
);

const updateStageSymbols = ['Accepted', 'Completed'] as const;
/** How far an update must get before the caller is answered. */
export const UpdateWorkflowExecutionLifecycleStage = symbolsObject(updateStageSymbols);
/** @see UpdateWorkflowExecutionLifecycleStage */
export type UpdateWorkflowExecutionLifecycleStage = (typeof updateStageSymbols)[number];
/** Avro schema of {@link UpdateWorkflowExecutionLifecycleStage}. */
export const updateWorkflowExecutionLifecycleStageSchema = enumOf(
  'logbook.UpdateWorkflowExecutionLifecycleStage',
  updateStageSymbols,
);
