/**
 * The deterministic PRNG behind `Math.random` and `uuid4` in workflow code: sfc32 (a small,
 * fast generator that passes PractRand) seeded from the run's `prngSeed`, so replay draws the
 * same numbers in the same order.
 * @module
 */

/** A source of uniformly distributed numbers in [0, 1). */
export type Random = () => number;

/**
 * Creates the generator for a seed (any integer a JS number holds exactly, negative included).
 * The two 32-bit halves of the seed go through splitmix32 so nearby seeds give unrelated streams.
 */
export function createPrng(seed: number): Random {
  const low = seed >>> 0;
  const high = Math.floor(seed / 0x1_0000_0000) >>> 0;
  let mix = (low ^ Math.imul(high, 0x9e3779b9)) >>> 0;
  const next32 = (): number => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = next32();
  let b = next32();
  let c = next32() ^ high;
  let d = 1;
  const sfc32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of a freshly seeded sfc32 are weakly mixed; the reference code discards 12.
  for (let i = 0; i < 12; i++) sfc32();
  return () => sfc32() / 0x1_0000_0000;
}

/** A version-4 UUID drawn from `random` (RFC 9562 layout: version nibble 4, variant bits 10). */
export function uuid4From(random: Random): string {
  const bytes: number[] = [];
  for (let i = 0; i < 16; i++) bytes.push(Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
