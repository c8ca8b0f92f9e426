/**
 * The SDK's local-activity markers as recorded in history: `sdk.local-activity`, written by the
 * worker that ran the activity inside a workflow task. Replay takes the outcome from the marker
 * and never runs the activity again. Details (plain JSON payloads, readable without the
 * application's codec, except `result`): `seq`, `activityType`, `attempt` (the last attempt run),
 * and one of `result` (a payload of the worker's data converter), `backoffMs` (the worker stopped
 * retrying within the task: the workflow waits that long on a durable timer, then runs attempt
 * `attempt + 1`) or `retryState` with the marker's `failure` (it failed for good).
 * @module
 */
import { JsonPayloadConverter, type Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { RetryState } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { LocalActivityRequestOptions } from '../workflow/bridge.js';

/** Name of the marker a local activity's outcome is recorded in. */
export const LOCAL_ACTIVITY_MARKER_NAME = 'sdk.local-activity';

/** How a local activity ended within one workflow task. */
export type LocalActivityOutcome = {
  seq: number;
  activityType: string;
  /** The last attempt that ran. */
  attempt: number;
} & (
  | { kind: 'completed'; result: Payload }
  | { kind: 'failed'; failure: Failure; retryState: RetryState }
  | { kind: 'backoff'; failure: Failure; backoffMs: number }
);

const json = new JsonPayloadConverter();
const one = (value: unknown): Payload[] => [json.toPayload(value)!];

/** The `RecordMarker` command recording `outcome`. */
export function localActivityMarkerCommand(outcome: LocalActivityOutcome): WorkflowCommand {
  const details: Record<string, Payload[]> = { seq: one(outcome.seq), activityType: one(outcome.activityType), attempt: one(outcome.attempt) };
  if (outcome.kind === 'completed') details['result'] = [outcome.result];
  if (outcome.kind === 'backoff') details['backoffMs'] = one(outcome.backoffMs);
  if (outcome.kind === 'failed') details['retryState'] = one(outcome.retryState);
  return { type: 'RecordMarker', markerName: LOCAL_ACTIVITY_MARKER_NAME, details, header: {}, failure: outcome.kind === 'completed' ? null : outcome.failure };
}

/** The sequence number a local-activity marker records, or null for any other marker. */
export function localActivitySeqOf(markerName: string, details: Record<string, Payload[]>): number | null {
  const seq = details['seq']?.[0];
  return markerName === LOCAL_ACTIVITY_MARKER_NAME && seq !== undefined ? Number(json.fromPayload(seq)) : null;
}

/** The outcome a local-activity marker records, or null when it is not one (or is malformed). */
export function localActivityOf(markerName: string, details: Record<string, Payload[]>, failure: Failure | null): LocalActivityOutcome | null {
  const seq = localActivitySeqOf(markerName, details);
  const type = details['activityType']?.[0];
  const attempt = details['attempt']?.[0];
  if (seq === null || type === undefined || attempt === undefined) return null;
  const base = { seq, activityType: String(json.fromPayload(type)), attempt: Number(json.fromPayload(attempt)) };
  const result = details['result']?.[0];
  if (result !== undefined) return { ...base, kind: 'completed', result };
  if (failure === null) return null;
  const backoff = details['backoffMs']?.[0];
  if (backoff !== undefined) return { ...base, kind: 'backoff', failure, backoffMs: Number(json.fromPayload(backoff)) };
  const retryState = details['retryState']?.[0];
  return { ...base, kind: 'failed', failure, retryState: (retryState === undefined ? 'NonRetryableFailure' : json.fromPayload(retryState)) as RetryState };
}

/** A local activity the workflow code asked for in an activation: the worker runs it (or replay reads its marker). */
export interface LocalActivityRequest {
  seq: number;
  activityType: string;
  /** Encoded arguments. */
  args: Payload[];
  options: LocalActivityRequestOptions;
}
