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
