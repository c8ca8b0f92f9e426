/**
 * The failures workflow code sees and throws, named as in Temporal's TypeScript SDK.
 *
 * A {@link WorkflowFailure} thrown out of a workflow fails (or, for a cancellation, cancels) the
 * *run*; any other error fails only the *workflow task*, which the engine retries, so a fix can be
 * deployed without losing the run. Failures cross topics as `logbook.Failure` records matched by
 * `code` (never by class): an {@link ApplicationFailure}'s code is its `type`.
 * @module
 */

/** Failure codes with a meaning of their own; any other code is an {@link ApplicationFailure} type. */
export const FailureCode = {
  Activity: 'ActivityFailure',
  Cancelled: 'CancelledFailure',
  Timeout: 'TimeoutFailure',
  DeterminismViolation: 'DeterminismViolationError',
  ChildWorkflow: 'ChildWorkflowFailure',
  Terminated: 'TerminatedFailure',
} as const;

/** Base of every failure that fails a run rather than a task (Temporal's `TemporalFailure`). */
export class WorkflowFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Options of {@link ApplicationFailure.create}. */
export interface ApplicationFailureOptions {
  message: string;
  /** Matched against a retry policy's `nonRetryableErrorTypes`; defaults to `ApplicationFailure`. */
  type?: string;
  /** Never retry, whatever the retry policy says. */
  nonRetryable?: boolean;
  /** Extra values encoded with the data converter and readable by whoever handles the failure. */
  details?: unknown[];
  cause?: unknown;
}

/**
 * A business failure raised on purpose. Thrown from a workflow it fails the run; thrown from an
 * activity it fails the attempt (and the activity, once retries are exhausted or it is
 * non-retryable), reaching the workflow as the `cause` of an {@link ActivityFailure}.
 *
 * @example
 * throw ApplicationFailure.nonRetryable('card declined', 'PaymentDeclined', { orderId });
 */
export class ApplicationFailure extends WorkflowFailure {
  readonly type: string;
  readonly nonRetryable: boolean;
  readonly details: readonly unknown[];

  constructor(message: string, type?: string, nonRetryable = false, details: unknown[] = [], cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.type = type ?? 'ApplicationFailure';
    this.nonRetryable = nonRetryable;
    this.details = details;
  }

  /** Builds a failure from named options. */
  static create(options: ApplicationFailureOptions): ApplicationFailure {
    const { message, type, nonRetryable, details, cause } = options;
    return new ApplicationFailure(message, type, nonRetryable ?? false, details ?? [], cause);
  }

  /** A failure the retry policy may retry (unless its type is listed as non-retryable). */
  static retryable(message: string, type?: string, ...details: unknown[]): ApplicationFailure {
    return new ApplicationFailure(message, type, false, details);
  }

  /** A failure that is never retried. */
  static nonRetryable(message: string, type?: string, ...details: unknown[]): ApplicationFailure {
    return new ApplicationFailure(message, type, true, details);
  }

  /** Wraps any error (keeping its name as the type), or returns it when it already is one. */
  static fromError(error: unknown, overrides: Partial<ApplicationFailureOptions> = {}): ApplicationFailure {
    if (error instanceof ApplicationFailure) return error;
    const err = error instanceof Error ? error : new Error(String(error));
    return ApplicationFailure.create({ message: err.message, type: err.name, cause: err.cause, ...overrides });
  }
}

/** Which timeout fired (Temporal's names, as in `logbook.TimeoutType`). */
export type TimeoutType = 'StartToClose' | 'ScheduleToStart' | 'ScheduleToClose' | 'Heartbeat';

/** A timeout fired; found as the `cause` of an {@link ActivityFailure}. */
export class TimeoutFailure extends WorkflowFailure {
  constructor(
    message: string,
    /** `null` when the timeout kind is not known (it does not survive a `logbook.Failure`). */
    readonly timeoutType: TimeoutType | null,
  ) {
    super(message);
  }
}

/**
 * A cancellation: thrown from `sleep`, `condition` and activities awaited in a cancelled
 * {@link CancellationScope}. Thrown out of the workflow after a cancel request it cancels the run.
 */
export class CancelledFailure extends WorkflowFailure {
  constructor(
    message = 'cancelled',
    readonly details: readonly unknown[] = [],
  ) {
    super(message);
  }
}

/** An activity failed for good (retries exhausted, non-retryable, timed out or cancelled); see `cause`. */
export class ActivityFailure extends WorkflowFailure {
  constructor(
    message: string,
    readonly activityType: string,
    readonly activityId: string,
    /** Why retrying stopped (`logbook.RetryState`), when known. */
    readonly retryState: string | null,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

/** The workflow was terminated (from outside: a client, a parent close policy, a limit); the cause of a {@link ChildWorkflowFailure}. */
export class TerminatedFailure extends WorkflowFailure {}

/** Which run of a child a {@link ChildWorkflowFailure} is about. */
export interface ChildWorkflowExecution {
  workflowId: string;
  /** The run that ended (the last of its continue-as-new chain); empty when not known. */
  runId: string;
}

/**
 * A child workflow ended without a result (failed, cancelled, terminated or timed out): what
 * `executeChild` and a child handle's `result()` reject with; `cause` says how it ended
 * (an {@link ApplicationFailure}, a {@link CancelledFailure}, a {@link TerminatedFailure} or a
 * {@link TimeoutFailure}).
 */
export class ChildWorkflowFailure extends WorkflowFailure {
  constructor(
    readonly namespace: string | undefined,
    readonly execution: ChildWorkflowExecution,
    readonly workflowType: string,
    /** Why retrying stopped (`logbook.RetryState`), when known. */
    readonly retryState: string | null,
    cause: unknown,
  ) {
    super('Child Workflow execution failed', { cause });
  }
}

/**
 * `startChild` / `executeChild` could not start the child: a run with its workflow id is already
 * open (or the id's reuse policy refused it).
 */
export class WorkflowExecutionAlreadyStartedError extends WorkflowFailure {
  constructor(
    message: string,
    readonly workflowId: string,
    readonly workflowType: string,
  ) {
    super(message);
  }
}

/**
 * Workflow code used an API that would behave differently on replay (e.g. `setInterval`). It fails
 * the workflow task even if the code catches it, so the problem cannot go unnoticed.
 */
export class DeterminismViolationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeterminismViolationError';
  }
}

/** A workflow API was called outside workflow code (outside a run's sandbox). */
export class IllegalStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalStateError';
  }
}

/**
 * True for a {@link CancelledFailure}, or an {@link ActivityFailure} or {@link ChildWorkflowFailure}
 * caused by one: what awaiting something in a cancelled scope throws.
 */
export function isCancellation(error: unknown): boolean {
  if (error instanceof CancelledFailure) return true;
  return (error instanceof ActivityFailure || error instanceof ChildWorkflowFailure) && error.cause instanceof CancelledFailure;
}
