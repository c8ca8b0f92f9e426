import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OffsetTracker } from './offset-tracker.js';

test('a worker commits only up to the lowest unfinished task when tasks finish out of order', () => {
  const t = new OffsetTracker();
  assert.equal(t.committable(), undefined);
  [10, 11, 12].forEach((o) => t.begin(o));
  t.end(12);
  t.end(11);
  assert.equal(t.committable(), 10);
  t.end(10);
  assert.equal(t.committable(), 13);
  assert.equal(t.isRunning(10), false);
});
