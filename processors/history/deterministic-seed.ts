/**
 * Deterministic numbers derived from ids: the engine has no randomness of its own (DESIGN.md,
 * determinism), so whatever must look random is a hash of something in the input.
 * @module
 */

/** 32-bit FNV-1a of a string's UTF-16 code units, from a given offset basis. */
function fnv1a32(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The PRNG seed of a run, derived from its run id: a non-negative integer below 2^52, so it fits
 * an Avro long as a JS number exactly (the schema requires |seed| ≤ 2^53 − 2).
 *
 * @example prngSeedOf('0b6f1c1e-3c58-4c44-9d59-7f3e1a2b4c5d') // always the same number
 */
export function prngSeedOf(runId: string): number {
  const high = fnv1a32(runId, 0x811c9dc5) & 0xfffff;
  const low = fnv1a32(runId, 0x050c5d1f);
  return high * 0x1_0000_0000 + low;
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** A version-4-shaped UUID made of four FNV-1a hashes of `text` (version and variant bits set). */
function uuidShapedHashOf(text: string): string {
  const words = [0x811c9dc5, 0x050c5d1f, 0x1b873593, 0x27d4eb2f].map((basis) => hex8(fnv1a32(text, basis)));
  const hex = words.join('');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The run id of the run that continues `runId` (continue-as-new), derived from the old run id and
 * the id of the event that closed it: the same inputs always give the same id, so a replayed
 * completion starts the same new run. Shaped like a version-4 UUID (four FNV-1a hashes with
 * different offset bases, version and variant bits set) so it looks like the ids clients choose.
 *
 * @example continuedRunIdOf('0b6f1c1e-3c58-4c44-9d59-7f3e1a2b4c5d', 42) // 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'
 */
export function continuedRunIdOf(runId: string, closingEventId: number): string {
  return uuidShapedHashOf(`${runId}/continued-as-new/${closingEventId}`);
}

/**
 * The run id of the run that a reset of `baseRunId` creates, derived from the base run and the
 * reset request's id: a redelivered request makes the same run, two resets of one run two runs.
 *
 * @example resetRunIdOf('0b6f1c1e-3c58-4c44-9d59-7f3e1a2b4c5d', 'req-1') // 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'
 */
export function resetRunIdOf(baseRunId: string, requestId: string): string {
  return uuidShapedHashOf(`${baseRunId}/reset/${requestId}`);
}

/**
 * The run id of the child a parent run starts with its `StartChildWorkflowExecutionInitiated`
 * event `initiatedEventId`: a re-applied batch sends the same start, which the child's shard
 * recognises as already applied.
 */
export function childRunIdOf(parentRunId: string, initiatedEventId: number): string {
  return uuidShapedHashOf(`${parentRunId}/child/${initiatedEventId}`);
}

/**
 * The run id given to a start that names a run id an earlier run of the same workflow id used
 * (a start redelivered after a later run began): derived from the requested id and the current
 * run's, so the same redelivery always makes the same run, and never the earlier run's id.
 */
export function reusedRunIdOf(requestedRunId: string, currentRunId: string): string {
  return uuidShapedHashOf(`${requestedRunId}/requested-again-after/${currentRunId}`);
}
