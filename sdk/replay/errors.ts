/**
 * Errors of the replay engine, named by remedy (house style: stable `code`, `retriable`).
 * @module
 */
import { LogbookError } from '../../topics/errors.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';

export { DeadlockError } from '../workflow/sandbox.js';

/** Where replay diverged: the recorded event and the command the code produced there. */
export interface NonDeterminismDetails {
  workflowType: string;
  workflowId: string;
  runId: string;
  /** Id of the recorded event the command was compared with (or would have become). */
  eventId: number;
  /** The recorded event, e.g. `ActivityTaskScheduled(activityType=charge, activityId=2)`; null if none. */
  expected: string | null;
  /** The command the code produced, e.g. `ScheduleActivityTask(activityType=ship, activityId=2)`; null if none. */
  found: string | null;
}

/**
 * Replaying the history with the current workflow code produced different commands than the ones
 * recorded: the code changed incompatibly (a step added, removed or reordered) or is not
 * deterministic. Remedy: deploy code that replays the recorded history (or reset the run); the
 * workflow task keeps failing until then, and the run never silently takes another path.
 */
export class NonDeterminismError extends LogbookError {
  readonly details: NonDeterminismDetails;

  constructor(details: NonDeterminismDetails, hint = '') {
    const { workflowType, workflowId, eventId, expected, found } = details;
    const recorded = expected === null ? 'no further command event' : expected;
    const produced = found === null ? 'no further command' : found;
    super(
      'NON_DETERMINISM',
      `non-determinism in workflow ${workflowType} (workflowId ${workflowId}) at event ${eventId}: ` +
        `history recorded ${recorded} but the workflow code produced ${produced}${hint === '' ? '' : ` (${hint})`}`,
    );
    this.details = details;
  }
}

/**
 * A cached run cannot continue from the events it was given (the workflow task it completed was
 * failed or timed out by the engine, or the events do not continue its history). Remedy: evict
 * the run and replay the full history on a new one.
 */
export class EvictionRequiredError extends LogbookError {
  constructor(message: string) {
    super('WORKFLOW_RUN_EVICTION_REQUIRED', message, { retriable: true });
  }
}

/** Why a workflow task failed, as the SDK reports it. */
export type WorkflowTaskFailureCause = 'NonDeterminism' | 'WorkflowCodeError' | 'Deadlock' | 'UnknownWorkflowType';

/**
 * Workflow code failed the task: it threw something other than a workflow failure (a bug — a
 * TypeError, a determinism violation…), exports no such workflow type, or its bundle does not
 * evaluate. Remedy: fix and deploy the code; the engine retries the task meanwhile.
 */
export class WorkflowTaskFailedError extends LogbookError {
  constructor(
    readonly taskFailureCause: WorkflowTaskFailureCause,
    message: string,
    /** The failure as reported to the engine. */
    readonly failure: Failure,
  ) {
    super('WORKFLOW_TASK_FAILED', message, { retriable: true });
  }
}

/**
 * The events given do not have the shape the engine writes (no open workflow task at the end, a
 * command event without its WorkflowTaskCompleted, a result for an activity never scheduled…).
 * Remedy: a caller or engine bug — fix the caller; retrying with the same events fails again.
 */
export class HistoryShapeError extends LogbookError {
  constructor(message: string) {
    super('HISTORY_SHAPE_INVALID', message);
  }
}
