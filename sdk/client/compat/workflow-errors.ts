/**
 * The errors a `logbook/client` handle throws, named and shaped as in `@temporalio/client`, and
 * the translation of a recorded `logbook.Failure` (as the gateway answers it in JSON) into the
 * failure classes of `logbook/common`.
 * @module
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  ChildWorkflowFailure,
  FailureCode,
  TerminatedFailure,
  TimeoutFailure,
  type TimeoutType,
} from '../../workflow/errors.js';

/** A `logbook.Failure` as the gateway answers it: details decoded by the data converter. */
export interface FailureJson {
  readonly message: string;
  readonly code: string;
  readonly stackTrace?: string;
  readonly nonRetryable?: boolean;
  readonly details?: unknown;
  readonly cause?: FailureJson | null;
}

/**
 * The run closed without a result: failed, cancelled, terminated or timed out. `cause` says how
 * (an `ApplicationFailure`, an `ActivityFailure` whose own cause is the activity's failure, a
 * `ChildWorkflowFailure`, `CancelledFailure`, `TerminatedFailure` or `TimeoutFailure`).
 */
export class WorkflowFailedError extends Error {
  constructor(
    message: string,
    override readonly cause: Error | undefined,
    /** Why the workflow's retries stopped, when known (Temporal's `RetryState`). */
    readonly retryState: string | null = null,
  ) {
    super(message, { cause });
    this.name = 'WorkflowFailedError';
  }
}

/** The run continued as new and the caller asked not to follow it (`followRuns: false`). */
export class WorkflowContinuedAsNewError extends Error {
  constructor(
    message: string,
    readonly newExecutionRunId: string,
  ) {
    super(message);
    this.name = 'WorkflowContinuedAsNewError';
  }
}

/** No workflow (or run) with this id in the namespace. */
export class WorkflowNotFoundError extends Error {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly runId: string | undefined,
  ) {
    super(message);
    this.name = 'WorkflowNotFoundError';
  }
}

const TIMEOUT_TYPES: ReadonlySet<string> = new Set(['StartToClose', 'ScheduleToStart', 'ScheduleToClose', 'Heartbeat']);

/** The failure class a recorded failure stands for, its causes converted too. */
export function failureToError(failure: FailureJson): Error {
  const cause = failure.cause ? failureToError(failure.cause) : undefined;
  const details = failure.details === undefined || failure.details === null ? [] : Array.isArray(failure.details) ? failure.details : [failure.details];
  let error: Error;
  switch (failure.code) {
    case FailureCode.Activity:
      error = new ActivityFailure(failure.message, '', '', null, cause);
      break;
    case FailureCode.ChildWorkflow:
      error = new ChildWorkflowFailure(undefined, { workflowId: '', runId: '' }, '', null, cause);
      break;
    case FailureCode.Cancelled:
    case 'Canceled':
      error = new CancelledFailure(failure.message, details);
      break;
    case FailureCode.Timeout:
    case 'TimedOut': {
      const kind = details.find((d) => typeof d === 'string' && TIMEOUT_TYPES.has(d));
      error = new TimeoutFailure(failure.message, (kind as TimeoutType | undefined) ?? null);
      break;
    }
    case FailureCode.Terminated:
    case 'Terminated':
      error = new TerminatedFailure(failure.message);
      break;
    default:
      error = new ApplicationFailure(failure.message, failure.code, failure.nonRetryable === true, details, cause);
  }
  // Where it really happened (an activity on another worker), not this line.
  if (failure.stackTrace) error.stack = failure.stackTrace;
  return error;
}

/** The error `result()` throws for a run that closed with `status` (anything but Completed). */
export function closedRunError(status: string, failure: FailureJson | null, newExecutionRunId: string | null): Error {
  switch (status) {
    case 'Canceled':
      return new WorkflowFailedError('Workflow execution cancelled', new CancelledFailure(failure?.message ?? 'cancelled'));
    case 'Terminated':
      return new WorkflowFailedError('Workflow execution terminated', new TerminatedFailure(failure?.message ?? 'terminated'));
    case 'TimedOut':
      return new WorkflowFailedError('Workflow execution timed out', new TimeoutFailure(failure?.message ?? 'workflow timed out', 'StartToClose'));
    case 'ContinuedAsNew':
      return new WorkflowContinuedAsNewError('Workflow execution continued as new', newExecutionRunId ?? '');
    default:
      return new WorkflowFailedError('Workflow execution failed', failure ? failureToError(failure) : undefined);
  }
}
