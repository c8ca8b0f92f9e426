/**
 * Rules for durations, waits, sizes and enumerated choices, shared by the clients, the gateway
 * and the history state machine. Pure: no I/O.
 *
 * - A duration (a timeout, an interval, a delay) is a whole number of milliseconds from 0 to 100
 *   years (365.25-day years: 3,155,760,000,000 ms). Well inside the integers a JavaScript number
 *   holds exactly (2^53) and Avro's long, and far beyond any sensible timeout, so adding one to a
 *   time never overflows; `"1000000000d"` is refused instead of failing to encode.
 * - A request's wait (a result, an update's outcome, a query) lasts at most one hour; a caller
 *   that wants to wait longer asks again. Node timers hold at most 2^31 - 1 ms (24.8 days) and
 *   fire at once beyond, so an unbounded wait would answer at once.
 * - A count stored as an Avro int (`retryPolicy.maximumAttempts`) is at most 2^31 - 1.
 * - A point in time (a Datetime search attribute) is whole milliseconds within ±8.64e15 of the
 *   epoch, the range of a JavaScript Date: a later one could be stored but never listed.
 * @module
 */

/** Largest duration: 100 years of 365.25 days, in milliseconds. */
export const MAX_DURATION_MS = 100 * 365.25 * 24 * 3_600_000;
/** Longest wait of one request (result, update outcome, query): one hour. */
export const MAX_REQUEST_WAIT_MS = 3_600_000;
/** Largest value of an Avro int. */
export const MAX_AVRO_INT = 2 ** 31 - 1;
/** Largest distance from the Unix epoch a JavaScript Date holds, in milliseconds (beyond it a time cannot be shown). */
export const MAX_DATETIME_MS = 8.64e15;

/** Why `value` cannot be the duration `field` in milliseconds, or null. */
export function durationProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DURATION_MS) {
    return `${field} must be a whole number of milliseconds from 0 to ${MAX_DURATION_MS} (100 years), got ${String(value)}`;
  }
  return null;
}

/** Like {@link durationProblem}, but null (unset) is allowed too. */
export function optionalDurationProblem(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : durationProblem(value, field);
}

/** Why `value` cannot be how long the request waits (`field`, in milliseconds), or null. */
export function waitProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_REQUEST_WAIT_MS) {
    return `${field} must be a wait from 0 to 1h (${MAX_REQUEST_WAIT_MS} ms), got ${typeof value === 'number' ? `${value} ms` : String(value)}; ask again to wait longer`;
  }
  return null;
}

/** Why `value` cannot be the point in time `field` (epoch milliseconds), or null. */
export function datetimeProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > MAX_DATETIME_MS) {
    return `${field} must be whole epoch milliseconds within ±${MAX_DATETIME_MS} (the years -271821 to 275760), got ${String(value)}`;
  }
  return null;
}

/** Why `value` cannot be the whole number `field` from `min` to `max`, or null. */
export function wholeNumberProblem(value: unknown, field: string, min: number, max: number): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return `${field} must be a whole number from ${min} to ${max}, got ${String(value)}`;
  }
  return null;
}

/** Why `value` is none of `allowed` (the choices of `field`), or null. */
export function oneOfProblem(value: unknown, field: string, allowed: readonly string[]): string | null {
  if (typeof value === 'string' && allowed.includes(value)) return null;
  return `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value) ?? String(value)}`;
}
