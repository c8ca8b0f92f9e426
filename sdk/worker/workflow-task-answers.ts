import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import type { WorkflowTaskFailureCause } from '../replay/errors.js';
import type { WorkflowTaskResult } from '../replay/workflow-run.js';
import { isTooLarge, tooLargeFailure } from './oversized-output.js';
import { toFailure } from './worker-connection.js';

/** The SDK's name and version, recorded with every workflow task completion. */
export const SDK_NAME = 'logbook-typescript';
export const SDK_VERSION = '0.1.0';

/** The history's cause for each way a workflow task fails on the worker (the failure says more). */
const TASK_FAILED_CAUSE: Readonly<Record<WorkflowTaskFailureCause, WorkflowTaskFailedCause>> = {
  NonDeterminism: 'NonDeterministicError',
  WorkflowCodeError: 'WorkflowWorkerUnhandledFailure',
  Deadlock: 'WorkflowWorkerUnhandledFailure',
  UnknownWorkflowType: 'WorkflowWorkerUnhandledFailure',
};

/** The `WorkflowTaskFailed` cause of a failed activation. */
export function taskFailedCause(result: Extract<WorkflowTaskResult, { type: 'failed' }>): WorkflowTaskFailedCause {
  return TASK_FAILED_CAUSE[result.cause];
}

/**
 * How a task whose completion can never be sent (too large, not encodable) is failed instead;
 * `tooLarge` when the refusal says the completion is over the size limit.
 */
export function unsendableCompletion(task: WorkflowTask, error: unknown, tooLarge = isTooLarge(error)): { cause: WorkflowTaskFailedCause; failure: Failure } {
  if (tooLarge) return { cause: 'PayloadTooLarge', failure: tooLargeFailure(`the completion of workflow task ${task.scheduledEventId} of ${task.workflowId}`, error as Error) };
  return { cause: 'WorkflowWorkerUnhandledFailure', failure: toFailure(error) };
}
