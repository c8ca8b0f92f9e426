import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActivityDispatchRate } from './dispatch-rate.js';

/** Start times of `count` activities that each start as soon as the limiter lets them, all asked at 0. */
function startTimes(rate: ActivityDispatchRate, count: number): number[] {
  return Array.from({ length: count }, () => rate.reserve());
}

describe('activity dispatch rate', () => {
  it('holds one worker to maxActivitiesPerSecond', () => {
    const rate = new ActivityDispatchRate({ perWorker: 2, perQueue: () => null, share: () => 1, clock: () => 0 });
    assert.deepEqual(startTimes(rate, 5), [0, 0, 500, 1000, 1500]);
  });

  it("gives a worker its share of the queue's rate by partitions, and the stricter of both limits", () => {
    const half = new ActivityDispatchRate({ perQueue: () => 8, share: () => 0.5, clock: () => 0 });
    assert.deepEqual(startTimes(half, 6), [0, 0, 0, 0, 250, 500]);
    const both = new ActivityDispatchRate({ perWorker: 1, perQueue: () => 8, share: () => 1, clock: () => 0 });
    assert.deepEqual(startTimes(both, 3), [0, 1000, 2000]);
  });

  it('does not pace without a rate, and refuses a per-worker rate that is not positive', () => {
    const free = new ActivityDispatchRate({ perQueue: () => null, share: () => 1, clock: () => 0 });
    assert.deepEqual(startTimes(free, 3), [0, 0, 0]);
    assert.throws(() => new ActivityDispatchRate({ perWorker: 0, perQueue: () => null, share: () => 1 }), TypeError);
  });
});
