/**
 * A token bucket: `ratePerSecond` tokens a second, holding at most `burst` (default: one second's
 * worth, at least one). Time is passed in, so it is exact in tests and usable anywhere.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  readonly burst: number;

  constructor(
    readonly ratePerSecond: number,
    now: number,
    burst?: number,
  ) {
    if (!(ratePerSecond > 0)) throw new RangeError(`a token bucket needs a positive rate, got ${ratePerSecond}`);
    this.burst = burst ?? Math.max(1, ratePerSecond);
    this.tokens = this.burst;
    this.last = now;
  }

  /** Takes a token if there is one: 0; otherwise how many ms until there is one (nothing is taken). */
  tryTake(now: number): number {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
  }

  /** Takes a token now, going into debt if needed: how many ms the caller must wait before using it. */
  reserve(now: number): number {
    this.refill(now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.last);
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.ratePerSecond);
  }
}

/** Token buckets by name whose rate may change: a new rate gets a fresh bucket; no rate, no limit. */
export class TokenBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  /** The bucket of `name` at `ratePerSecond`, or undefined when the rate is null (unlimited). */
  bucket(name: string, ratePerSecond: number | null, now: number): TokenBucket | undefined {
    if (ratePerSecond === null) {
      this.buckets.delete(name);
      return undefined;
    }
    let bucket = this.buckets.get(name);
    if (bucket?.ratePerSecond !== ratePerSecond) {
      bucket = new TokenBucket(ratePerSecond, now);
      this.buckets.set(name, bucket);
    }
    return bucket;
  }
}
