/**
 * Errors ↔ {@link FailureInfo} inside the sandbox. A failure arriving from history becomes the
 * matching failure class (by `code`); an error leaving workflow code becomes plain data the host
 * turns into a `logbook.Failure`.
 * @module
 */
import type { FailureInfo } from './bridge.js';
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  ChildWorkflowFailure,
  FailureCode,
  TerminatedFailure,
  TimeoutFailure,
  type TimeoutType,
} from './errors.js';

/** Rebuilds the failure class a recorded failure stands for. */
export function errorFromFailureInfo(info: FailureInfo): Error {
  const cause = info.cause === null ? undefined : errorFromFailureInfo(info.cause);
  let error: Error;
  switch (info.code) {
    case FailureCode.Cancelled:
      error = new CancelledFailure(info.message, info.details);
      break;
    case FailureCode.Timeout:
      error = new TimeoutFailure(info.message, (info.timeoutType ?? null) as TimeoutType | null);
      break;
    case FailureCode.Activity:
      error = new ActivityFailure(info.message, '', '', null, cause);
      break;
    case FailureCode.ChildWorkflow:
      error = new ChildWorkflowFailure(undefined, { workflowId: '', runId: '' }, '', null, cause);
      break;
    case FailureCode.Terminated:
      error = new TerminatedFailure(info.message);
      break;
    default:
      error = new ApplicationFailure(info.message, info.code, info.nonRetryable, info.details, cause);
  }
  // Keep the stack of where it really happened (an activity on another worker), not this line.
  if (info.stack !== '') error.stack = info.stack;
  return error;
}

/**
 * Describes any thrown value as plain failure data (codes as documented in `errors.ts`). With
 * `encode`, details leave as `encodedDetails` (what the sandbox sends the host).
 */
export function failureInfoFromError(error: unknown, encode?: (value: unknown) => unknown): FailureInfo {
  if (!(error instanceof Error) && !isErrorLike(error)) {
    return { message: String(error), code: 'Error', stack: '', nonRetryable: false, details: [], cause: null };
  }
  const err = error as Error;
  const details = err instanceof ApplicationFailure || err instanceof CancelledFailure ? [...err.details] : [];
  const info: FailureInfo = {
    message: String(err.message),
    code: codeOf(err),
    stack: typeof err.stack === 'string' ? err.stack : '',
    nonRetryable: err instanceof ApplicationFailure ? err.nonRetryable : false,
    details: encode === undefined ? details : [],
    cause: err.cause === undefined || err.cause === null ? null : failureInfoFromError(err.cause, encode),
  };
  if (encode !== undefined) info.encodedDetails = details.length === 0 ? null : encode(details);
  if (err instanceof TimeoutFailure) info.timeoutType = err.timeoutType;
  return info;
}

function codeOf(err: Error): string {
  if (err instanceof ApplicationFailure) return err.type;
  if (err instanceof ActivityFailure) return FailureCode.Activity;
  if (err instanceof ChildWorkflowFailure) return FailureCode.ChildWorkflow;
  if (err instanceof TerminatedFailure) return FailureCode.Terminated;
  if (err instanceof CancelledFailure) return FailureCode.Cancelled;
  if (err instanceof TimeoutFailure) return FailureCode.Timeout;
  // Errors thrown by the host (e.g. a payload that cannot be encoded) keep their stable code.
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : String(err.name);
}

// Errors created in another realm (the host's) fail `instanceof Error` here.
function isErrorLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Error]';
}
