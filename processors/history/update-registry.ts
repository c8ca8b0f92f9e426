/**
 * The run's update registry, kept in the snapshot's `pendingUpdates` (MutableStateSnapshot v1's
 * PendingUpdateInfo; no new schema version). Each entry is one caller of one update:
 *
 * - admitted: `acceptedEventId` null — waiting for the workflow's validator (nothing in history);
 * - accepted: `acceptedEventId` set — its handler runs;
 * - completed: the request's header holds the WorkflowExecutionUpdateCompleted event id under
 *   {@link OUTCOME_EVENT_KEY} and, for the latest {@link OUTCOMES_KEPT} updates whose outcome is
 *   small ({@link MAX_KEPT_OUTCOME_BYTES}), the outcome itself under {@link OUTCOME_RESULT_KEY} or
 *   {@link OUTCOME_FAILURE_KEY}; the arguments are dropped, `replyTo` is null. One such record per
 *   completed update id answers a repeated update id with the same outcome (or where to read it
 *   in history, so the snapshot stays small) and counts the run's updates for `maxUpdatesPerRun`
 *   (the count bounds the records too).
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
/** Header key of a completed update's WorkflowExecutionUpdateCompleted event id (JSON number). */
export const OUTCOME_EVENT_KEY = 'logbook.update.completed-event-id';
/** Completed updates whose outcome the state keeps (the latest ones); older ones keep their event id. */
export const OUTCOMES_KEPT = 50;
/** Largest outcome the state keeps (encoded bytes); a larger one is read from history when asked again. */
export const MAX_KEPT_OUTCOME_BYTES = 4096;

/** How an update ended. */
export type UpdateOutcome = { result: Payload | null; failure: null } | { result: null; failure: Failure };

/** True for a completed update's record. */
export function isCompletedRecord(entry: PendingUpdateInfo): boolean {
  return OUTCOME_EVENT_KEY in entry.request.header;
}

function keepsOutcome(entry: PendingUpdateInfo): boolean {
  const header = entry.request.header;
  return OUTCOME_RESULT_KEY in header || OUTCOME_FAILURE_KEY in header;
}

/** The WorkflowExecutionUpdateCompleted event id of a completed record. */
export function completedEventIdOf(entry: PendingUpdateInfo): number {
  return Number(JSON.parse(entry.request.header[OUTCOME_EVENT_KEY]!.data.toString('utf8')));
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

/** The outcome kept in a completed record; null when only its event id is kept (read it from history). */
export function outcomeOf(entry: PendingUpdateInfo): UpdateOutcome | null {
  if (!keepsOutcome(entry)) return null;
  const failure = entry.request.header[OUTCOME_FAILURE_KEY];
  if (failure) return { result: null, failure: failureFromJson(JSON.parse(failure.data.toString('utf8'))) };
  const result = entry.request.header[OUTCOME_RESULT_KEY];
  return { result: result && result.data.length + Object.keys(result.metadata).length > 0 ? result : null, failure: null };
}

const payloadBytes = (p: Payload): number => p.data.length + Object.entries(p.metadata).reduce((n, [k, v]) => n + k.length + v.length, 0);

/** The record that replaces an update's entries once it completed (the outcome kept only if small). */
export function completedRecord(entry: PendingUpdateInfo, outcome: UpdateOutcome, completedEventId: number): PendingUpdateInfo {
  const kept: Payload = outcome.failure
    ? { metadata: {}, data: Buffer.from(JSON.stringify(failureToJson(outcome.failure)), 'utf8') }
    : (outcome.result ?? { metadata: {}, data: Buffer.alloc(0) });
  const header: Record<string, Payload> = { [OUTCOME_EVENT_KEY]: { metadata: {}, data: Buffer.from(JSON.stringify(completedEventId), 'utf8') } };
  if (payloadBytes(kept) <= MAX_KEPT_OUTCOME_BYTES) header[outcome.failure ? OUTCOME_FAILURE_KEY : OUTCOME_RESULT_KEY] = kept;
  const request: UpdateRequest = { updateId: entry.request.updateId, identity: entry.request.identity, name: entry.request.name, header, args: [] };
  return { request, admittedTime: entry.admittedTime, acceptedEventId: entry.acceptedEventId, waitForStage: 'Completed', replyTo: null };
}

/** Drops the outcome of all but the latest {@link OUTCOMES_KEPT} completed records (their event ids stay). */
export function forgetOldOutcomes(state: MutableStateSnapshot): void {
  const keeping = state.pendingUpdates.filter(keepsOutcome);
  for (const entry of keeping.slice(0, Math.max(0, keeping.length - OUTCOMES_KEPT))) {
    entry.request.header = { [OUTCOME_EVENT_KEY]: entry.request.header[OUTCOME_EVENT_KEY]! };
  }
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
