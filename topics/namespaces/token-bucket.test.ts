import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket, TokenBuckets } from './token-bucket.js';

describe('token bucket', () => {
  it('allows a burst of one second, then one token per 1/rate, and says how long to wait', () => {
    const bucket = new TokenBucket(2, 0);
    assert.deepEqual([bucket.tryTake(0), bucket.tryTake(0)], [0, 0]);
    assert.equal(bucket.tryTake(0), 500);
    assert.equal(bucket.tryTake(250), 250, 'still short; nothing was taken by the refused calls');
    assert.equal(bucket.tryTake(500), 0);
  });

  it('has a burst of at least one token below one per second', () => {
    const bucket = new TokenBucket(0.1, 0);
    assert.equal(bucket.tryTake(0), 0);
    assert.equal(bucket.tryTake(0), 10_000);
  });

  it('reserves into debt so that callers are spaced at the rate', () => {
    const bucket = new TokenBucket(4, 0);
    const waits = Array.from({ length: 8 }, () => bucket.reserve(0));
    assert.deepEqual(waits, [0, 0, 0, 0, 250, 500, 750, 1000]);
  });

  it('refuses a rate that is not positive', () => {
    assert.throws(() => new TokenBucket(0, 0), RangeError);
  });

  it('keeps a bucket per name while its rate holds, and drops it when the rate is cleared', () => {
    const buckets = new TokenBuckets();
    const first = buckets.bucket('a', 1, 0);
    assert.equal(buckets.bucket('a', 1, 10), first);
    assert.notEqual(buckets.bucket('a', 2, 10), first);
    assert.equal(buckets.bucket('a', null, 10), undefined);
  });
});
