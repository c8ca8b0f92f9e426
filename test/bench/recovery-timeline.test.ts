import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longestCompletionGapMs, perSecondTimeline, recoverySeconds } from './recovery-timeline.js';

const KILL = 1_000_000;
/** Recovery at 20 workflows/s with load offered until `loadEndsAt`. */
const recover = (completedAt: number[], loadEndsAt = KILL + 60_000) => recoverySeconds({ killAt: KILL, loadEndsAt, ratePerSecond: 20, completedAt });
/** `n` completions spread over second `k` after the kill. */
const second = (k: number, n: number) => Array.from({ length: n }, (_, i) => KILL + k * 1000 + (i * 1000) / n);

test('recovery is the start of the first three consecutive seconds that each reach 90 % of the offered rate', () => {
  // Down for 5 s, a backlog burst in second 5, one weak second, then steady.
  const completed = [...second(0, 2), ...second(5, 60), ...second(6, 10), ...second(7, 19), ...second(8, 20), ...second(9, 18), ...second(10, 20)];
  assert.equal(recover(completed), 7);
  // 17 of 20 is below 90 %: the streak has to start again after it.
  const weak = [...second(5, 20), ...second(6, 20), ...second(7, 17), ...second(8, 20), ...second(9, 20), ...second(10, 20)];
  assert.equal(recover(weak), 8);
});

test('no recovery when the completions never hold the rate for three seconds while load is offered', () => {
  assert.equal(recover([...second(3, 20), ...second(4, 20)]), null);
  assert.equal(recover(second(-1, 20)), null, 'completions before the kill do not count');
  const drainedAfterLoad = [...second(8, 20), ...second(9, 20), ...second(10, 20), ...second(11, 20)];
  assert.equal(recover(drainedAfterLoad, KILL + 10_000), null, 'seconds after the arrivals stopped do not count');
  assert.equal(recover(drainedAfterLoad, KILL + 11_000), 8);
});

test('the timeline counts offered and completed workflows per second and the gap shows the downtime', () => {
  const timeline = perSecondTimeline(KILL, 3, [KILL, KILL + 10, KILL + 1500, KILL + 5000], [KILL + 900, KILL + 2999]);
  assert.deepEqual(timeline, [
    { second: 0, offered: 2, completed: 1 },
    { second: 1, offered: 1, completed: 0 },
    { second: 2, offered: 0, completed: 1 },
  ]);
  assert.equal(longestCompletionGapMs(KILL, [KILL + 200, KILL + 7200, KILL + 7300]), 7000);
});
