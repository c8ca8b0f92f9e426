/**
 * A small seeded pseudo-random source (mulberry32), so a fuzz or poison sequence can be replayed
 * from the seed a chaos run prints. Not for anything secret.
 */
export interface SeededRandom {
  /** The seed it was created with. */
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** An integer in [min, max], both included. */
  between(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T;
  /** `length` pseudo-random bytes. */
  bytes(length: number): Buffer;
}

/** A {@link SeededRandom} starting from `seed` (any 32-bit integer). */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  return {
    seed,
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(items.length)]!;
    },
    bytes(length) {
      const out = Buffer.alloc(length);
      // Four bytes per draw: a 3 MB record costs 750,000 draws, not three million.
      for (let i = 0; i < length; i += 4) {
        const word = Math.floor(next() * 4294967296);
        for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
      }
      return out;
    },
  };
}
