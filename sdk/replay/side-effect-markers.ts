/**
 * The SDK's side-effect markers (`sideEffect(fn)`) as recorded in history: `sdk.side-effect` with
 * the call's sequence number (a plain JSON payload, to match markers without the application's
 * codec) and the value (a payload of the worker's data converter).
 * @module
 */
import { JsonPayloadConverter, type Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';

/** Name of the marker `sideEffect` records. */
export const SIDE_EFFECT_MARKER_NAME = 'sdk.side-effect';

const json = new JsonPayloadConverter();

/** The `RecordMarker` command of side effect `seq` with its encoded value. */
export function sideEffectMarkerCommand(seq: number, value: Payload): WorkflowCommand {
  return { type: 'RecordMarker', markerName: SIDE_EFFECT_MARKER_NAME, details: { seq: [json.toPayload(seq)!], value: [value] }, header: {}, failure: null };
}

/** The sequence number and value payload a marker records, or null when it is not a side effect's. */
export function sideEffectOf(markerName: string, details: Record<string, Payload[]>): { seq: number; value: Payload } | null {
  const seq = details['seq']?.[0];
  const value = details['value']?.[0];
  if (markerName !== SIDE_EFFECT_MARKER_NAME || seq === undefined || value === undefined) return null;
  return { seq: Number(json.fromPayload(seq)), value };
}
