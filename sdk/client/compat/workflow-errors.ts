/**
 * The errors a `logbook/client` handle throws, named and shaped as in `@temporalio/client`, and
 * the translation of a recorded `logbook.Failure` (as the gateway answers it in JSON) into the
 * failure classes of `logbook/common`.
 * @module
 */
import type { FailureInfo } from '../../workflow/bridge.js';
import { CancelledFailure, FailureCode, TerminatedFailure, TimeoutFailure } from '../../workflow/errors.js';
import { errorFromFailureInfo } from '../../workflow/failure-info.js';

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

/** The engine's own codes for how a run ended, as the failure codes the workflow API uses. */
const ENGINE_CODES: Readonly<Record<string, string>> = { Canceled: FailureCode.Cancelled, TimedOut: FailureCode.Timeout, Terminated: FailureCode.Terminated };
const TIMEOUT_TYPES: ReadonlySet<string> = new Set(['StartToClose', 'ScheduleToStart', 'ScheduleToClose', 'Heartbeat']);

/** A recorded failure as the workflow API's failure data, its causes too. */
function failureInfoOf(failure: FailureJson): FailureInfo {
  const details = failure.details === undefined || failure.details === null ? [] : Array.isArray(failure.details) ? failure.details : [failure.details];
  const timeoutType = details.find((d): d is string => typeof d === 'string' && TIMEOUT_TYPES.has(d)) ?? null;
  return {
    message: failure.message,
    code: ENGINE_CODES[failure.code] ?? failure.code,
    stack: failure.stackTrace ?? '',
    nonRetryable: failure.nonRetryable === true,
    details,
    cause: failure.cause ? failureInfoOf(failure.cause) : null,
    timeoutType,
  };
}

/** The failure class a recorded failure stands for, its causes converted too (as workflow code sees them). */
export function failureToError(failure: FailureJson): Error {
  return errorFromFailureInfo(failureInfoOf(failure));
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
