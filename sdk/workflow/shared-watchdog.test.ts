import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blameDeadlockOn, sharedWatchdogCalls, underSharedWatchdog, withSharedWatchdog } from './shared-watchdog.js';

/** Blocks the thread for `ms` of real time, as slow workflow code would. */
function busyFor(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

test('steps queued in one turn run under one bounded call, each knowing it is under the shared watchdog', async () => {
  const before = sharedWatchdogCalls.count;
  const results = await Promise.all([1, 2, 3, 4].map((n) => withSharedWatchdog(1_000, () => ({ n, shared: underSharedWatchdog() }))));
  assert.deepEqual(results, [1, 2, 3, 4].map((n) => ({ n, shared: true })));
  assert.equal(sharedWatchdogCalls.count - before, 1);
  assert.equal(underSharedWatchdog(), false, 'outside a batch, calls bound themselves');
});

test('a step that never yields is interrupted and fails with the error it blamed; the steps queued after it still run', async () => {
  const steps = [
    withSharedWatchdog(100, () => 'before'),
    withSharedWatchdog(100, () => {
      blameDeadlockOn(() => new Error('spinner deadlocked'));
      for (;;);
    }),
    withSharedWatchdog(100, () => 'after'),
  ];
  const [before, spinner, after] = await Promise.allSettled(steps);
  assert.deepEqual(before, { status: 'fulfilled', value: 'before' });
  assert.equal(spinner?.status === 'rejected' ? (spinner.reason as Error).message : spinner?.status, 'spinner deadlocked');
  assert.deepEqual(after, { status: 'fulfilled', value: 'after' });
});

test('a step that throws fails alone', async () => {
  const [thrown, next] = await Promise.allSettled([
    withSharedWatchdog(1_000, () => {
      throw new RangeError('bad history');
    }),
    withSharedWatchdog(1_000, () => 'next'),
  ]);
  assert.ok(thrown.status === 'rejected' && thrown.reason instanceof RangeError);
  assert.deepEqual(next, { status: 'fulfilled', value: 'next' });
});

test('each step gets the whole deadlock timeout: slow steps that together exceed it run in slices of their own', async () => {
  // 180 + 180 ms exceed one bound of 300 + 10 ms; each alone is within it.
  const before = sharedWatchdogCalls.count;
  const results = await Promise.allSettled([withSharedWatchdog(300, () => busyFor(180)), withSharedWatchdog(300, () => busyFor(180))]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled']);
  assert.equal(sharedWatchdogCalls.count - before, 2);
});

test('steps with different deadlock timeouts are never bounded together', async () => {
  const before = sharedWatchdogCalls.count;
  await Promise.all([withSharedWatchdog(1_000, () => 1), withSharedWatchdog(2_000, () => 2), withSharedWatchdog(1_000, () => 3)]);
  assert.equal(sharedWatchdogCalls.count - before, 3);
});
