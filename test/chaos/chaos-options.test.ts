import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chaosSettings } from './chaos-options.js';

test('without flags the run is the full one: 2,000 workflows, a kill every 30 s, 20,000 fuzz requests', () => {
  const s = chaosSettings([], 5);
  assert.equal(s.quick, false);
  assert.equal(s.workflows, 2_000);
  assert.equal(s.killEverySeconds, 30);
  assert.equal(s.fuzz, 20_000);
  assert.equal(s.seed, 5);
  assert.equal(s.keep, false);
});

test('--quick makes it small, and flags given beside it win', () => {
  const quick = chaosSettings(['--quick'], 1);
  assert.ok(quick.workflows < 2_000 && quick.fuzz < 20_000 && quick.loadSeconds < 300);
  const s = chaosSettings(['--quick', '--workflows', '50', '--kill-every=10', '--fuzz', '0', '--keep', '--seed', '99'], 1);
  assert.deepEqual([s.workflows, s.killEverySeconds, s.fuzz, s.keep, s.seed, s.quick], [50, 10, 0, true, 99, true]);
});

test('a bad value is refused naming its flag, an unknown flag with the usage', () => {
  assert.throws(() => chaosSettings(['--workflows', 'many'], 1), /--workflows must be an integer from 1/);
  assert.throws(() => chaosSettings(['--kill-every', '1'], 1), /--kill-every must be an integer from 5/);
  assert.throws(() => chaosSettings(['--fuzz=-3'], 1), /--fuzz must be an integer/);
  assert.throws(() => chaosSettings(['--nodes', '3'], 1), /usage: npm run chaos/);
});
