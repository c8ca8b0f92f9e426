/**
 * What a worker reports when an output it must send — a workflow-task completion or an activity
 * result — is over the record size limit and cannot be sent at all (the engine checks the 2 MiB
 * payload limit of what does arrive). Retrying would produce the same output, so both are final:
 * the engine terminates the run (WorkflowTaskFailed with cause `PayloadTooLarge`), or fails the
 * activity without a retry (a non-retryable failure).
 * @module
 */
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import { RecordTooLargeError } from '../../topics/errors.js';

/** The failure code of an output over the limit (as the engine's, `processors/history/payload-limits.ts`). */
export const PAYLOAD_TOO_LARGE = 'PayloadTooLarge';

/** True when sending failed because the record is over the size limit. */
export function isTooLarge(error: unknown): error is RecordTooLargeError {
  return error instanceof RecordTooLargeError;
}

/** A non-retryable failure naming what could not be sent and why. */
export function tooLargeFailure(what: string, error: { readonly message: string }): Failure {
  return {
    message: `${what} is too large to send: ${error.message}; payloads may be at most 2 MiB`,
    source: 'TypeScriptSDK', stackTrace: '', code: PAYLOAD_TOO_LARGE, nonRetryable: true, details: null, cause: null,
  };
}
