/**
 * The run's update registry, kept in the snapshot's `pendingUpdates` (MutableStateSnapshot v1's
 * PendingUpdateInfo; no new schema version). Each entry is one caller of one update:
 *
 * - admitted: `acceptedEventId` null — waiting for the workflow's validator (nothing in history);
 * - accepted: `acceptedEventId` set — its handler runs;
 * - completed: the outcome is kept in the request's header under {@link OUTCOME_RESULT_KEY} or
 *   {@link OUTCOME_FAILURE_KEY}, the arguments dropped, `replyTo` null. One such record per
 *   completed update id answers a repeated update id with the same outcome and counts the run's
 *   updates for `maxUpdatesPerRun` (the count bounds the records too).
 *
 * A second caller of an update in flight (the same update id again) gets an entry of its own with
 * the same request, so every caller is answered; the entries of one update id change together.
 * @module
 */
import type { Payload } from '../../topics/payload/payload.js';
import type { Failure, UpdateRequest } from '../../topics/schemas/common/v1-records.js';
import type { MutableStateSnapshot, PendingUpdateInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';

/** Header key of a completed update's result payload. */
export const OUTCOME_RESULT_KEY = 'logbook.update.result';
/** Header key of a completed update's failure (JSON, payload bytes as base64). */
export const OUTCOME_FAILURE_KEY = 'logbook.update.failure';

/** How an update ended. */
export type UpdateOutcome = { result: Payload | null; failure: null } | { result: null; failure: Failure };

/** True for a completed update's record. */
export function isCompletedRecord(entry: PendingUpdateInfo): boolean {
  const header = entry.request.header;
  return OUTCOME_RESULT_KEY in header || OUTCOME_FAILURE_KEY in header;
}

/** The entries of one update id (its callers, or its completed record). */
export function entriesOf(state: MutableStateSnapshot, updateId: string): PendingUpdateInfo[] {
  return state.pendingUpdates.filter((u) => u.request.updateId === updateId);
}

/** One entry per update id still in flight (admitted or accepted), in admission order. */
export function inFlightUpdates(state: MutableStateSnapshot): PendingUpdateInfo[] {
  const seen = new Set<string>();
  return state.pendingUpdates.filter((u) => {
    if (isCompletedRecord(u) || seen.has(u.request.updateId)) return false;
    seen.add(u.request.updateId);
    return true;
  });
}

/** Admitted updates the workflow has not accepted or rejected yet (one per update id). */
export function admittedUpdates(state: MutableStateSnapshot): PendingUpdateInfo[] {
  return inFlightUpdates(state).filter((u) => u.acceptedEventId === null);
}

/** How many updates the run accepted in total (completed plus accepted and running). */
export function acceptedUpdateCount(state: MutableStateSnapshot): number {
  return state.pendingUpdates.filter(isCompletedRecord).length + inFlightUpdates(state).filter((u) => u.acceptedEventId !== null).length;
}

/** The outcome kept in a completed record. */
export function outcomeOf(entry: PendingUpdateInfo): UpdateOutcome {
  const failure = entry.request.header[OUTCOME_FAILURE_KEY];
  if (failure) return { result: null, failure: failureFromJson(JSON.parse(failure.data.toString('utf8'))) };
  const result = entry.request.header[OUTCOME_RESULT_KEY];
  return { result: result && result.data.length + Object.keys(result.metadata).length > 0 ? result : null, failure: null };
}

/** The record that replaces an update's entries once it completed. */
export function completedRecord(entry: PendingUpdateInfo, outcome: UpdateOutcome): PendingUpdateInfo {
  const header: Record<string, Payload> = outcome.failure
    ? { [OUTCOME_FAILURE_KEY]: { metadata: {}, data: Buffer.from(JSON.stringify(failureToJson(outcome.failure)), 'utf8') } }
    : { [OUTCOME_RESULT_KEY]: outcome.result ?? { metadata: {}, data: Buffer.alloc(0) } };
  const request: UpdateRequest = { updateId: entry.request.updateId, identity: entry.request.identity, name: entry.request.name, header, args: [] };
  return { request, admittedTime: entry.admittedTime, acceptedEventId: entry.acceptedEventId, waitForStage: 'Completed', replyTo: null };
}

type PayloadJson = { metadata: Record<string, string>; data: string };
type FailureJson = Omit<Failure, 'details' | 'cause'> & { details: PayloadJson | null; cause: FailureJson | null };

function payloadToJson(p: Payload): PayloadJson {
  return { metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, v.toString('base64')])), data: p.data.toString('base64') };
}

function payloadFromJson(p: PayloadJson): Payload {
  return { metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])), data: Buffer.from(p.data, 'base64') };
}

function failureToJson(f: Failure): FailureJson {
  return { ...f, details: f.details ? payloadToJson(f.details) : null, cause: f.cause ? failureToJson(f.cause) : null };
}

function failureFromJson(f: FailureJson): Failure {
  return { ...f, details: f.details ? payloadFromJson(f.details) : null, cause: f.cause ? failureFromJson(f.cause) : null };
}
