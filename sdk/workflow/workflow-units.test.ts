import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toScheduleOptions } from './activities.js';
import { durationToMs } from './duration.js';
import { ApplicationFailure, IllegalStateError } from './errors.js';
import { failureInfoFromError, errorFromFailureInfo } from './failure-info.js';
import { sleep, uuid4, workflowInfo } from './index.js';
import { createPrng, uuid4From } from './prng.js';

test('durations accept milliseconds and the unit strings Temporal accepts (the ms library), rounding fractions up', () => {
  assert.equal(durationToMs('1 minute', 'x'), 60_000);
  assert.equal(durationToMs('2w', 'x'), 1_209_600_000);
  assert.equal(durationToMs('1y', 'x'), 31_557_600_000);
  assert.equal(durationToMs(' 30 seconds ', 'x'), 30_000);
  assert.throws(() => durationToMs('-1h', 'sleep'), /sleep: invalid duration "-1h"/);
  assert.throws(() => durationToMs('', 'sleep'), /sleep: invalid duration ""/);
  assert.throws(() => durationToMs(`${'9'.repeat(120)}ms`, 'sleep'), /sleep: invalid duration/);
  assert.equal(durationToMs(1500, 'x'), 1500);
  assert.equal(durationToMs('10s', 'x'), 10_000);
  assert.equal(durationToMs('2m', 'x'), 120_000);
  assert.equal(durationToMs('48h', 'x'), 172_800_000);
  assert.equal(durationToMs('1.5 hours', 'x'), 5_400_000);
  assert.equal(durationToMs('2 days', 'x'), 172_800_000);
  assert.equal(durationToMs('250', 'x'), 250);
  assert.equal(durationToMs(0.2, 'x'), 1);
  assert.throws(() => durationToMs('ten seconds', 'startToCloseTimeout'), /startToCloseTimeout: invalid duration "ten seconds"/);
  assert.throws(() => durationToMs(-1, 'sleep'), /sleep: invalid duration -1/);
});

test('activity options need a close timeout and convert to the recorded shape', () => {
  assert.throws(() => toScheduleOptions({}), /set startToCloseTimeout or scheduleToCloseTimeout/);
  assert.deepEqual(toScheduleOptions({ scheduleToCloseTimeout: '1h', heartbeatTimeout: '5s', retry: { maximumInterval: '1m' }, taskQueue: 'payments' }), {
    taskQueue: 'payments', scheduleToCloseTimeoutMs: 3_600_000, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: null,
    heartbeatTimeoutMs: 5_000,
    retryPolicy: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 60_000, maximumAttempts: 0, nonRetryableErrorTypes: [] },
  });
  assert.throws(() => toScheduleOptions({ startToCloseTimeout: 1, retry: { backoffCoefficient: 0.5 } }), /backoffCoefficient/);
});

test('the PRNG is a pure function of its seed and uuid4 has the version-4 layout', () => {
  const draw = (seed: number) => Array.from({ length: 5 }, createPrng(seed));
  assert.deepEqual(draw(7), draw(7));
  assert.notDeepEqual(draw(7), draw(8));
  assert.notDeepEqual(draw(2 ** 40), draw(2 ** 40 + 2 ** 32), 'the high half of the seed matters');
  for (const x of draw(-123_456_789_012)) assert.ok(x >= 0 && x < 1);
  assert.match(uuid4From(createPrng(1)), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('failures survive the trip to plain data and back with their type, flags, details and cause', () => {
  const original = ApplicationFailure.create({ message: 'declined', type: 'PaymentDeclined', nonRetryable: true, details: [1], cause: new TypeError('inner') });
  const info = failureInfoFromError(original);
  assert.deepEqual({ ...info, stack: '', cause: { ...info.cause!, stack: '' } }, {
    message: 'declined', code: 'PaymentDeclined', stack: '', nonRetryable: true, details: [1],
    cause: { message: 'inner', code: 'TypeError', stack: '', nonRetryable: false, details: [], cause: null },
  });
  const back = errorFromFailureInfo(info);
  assert.ok(back instanceof ApplicationFailure);
  assert.equal(back.type, 'PaymentDeclined');
  assert.equal(back.nonRetryable, true);
  assert.equal((back.cause as ApplicationFailure).type, 'TypeError');
});

test('workflow APIs called outside a workflow throw an IllegalStateError naming the API', () => {
  assert.throws(() => sleep(1), (err: unknown) => err instanceof IllegalStateError && /sleep\(\) can only be called from workflow code/.test(err.message));
  assert.throws(() => uuid4(), IllegalStateError);
  assert.throws(() => workflowInfo(), IllegalStateError);
});
