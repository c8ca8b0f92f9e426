import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RestoreMachine } from './restore-machine.js';

test('a store moves REGISTERED → RESTORING → COMPLETED and may restore again', () => {
  const m = new RestoreMachine();
  assert.equal(m.phase, 'REGISTERED');
  m.start();
  assert.equal(m.phase, 'RESTORING');
  m.complete();
  assert.equal(m.phase, 'COMPLETED');
  m.start();
  m.fail();
  assert.equal(m.phase, 'FAILED');
});

test('an illegal move such as completing a store that never started restoring throws', () => {
  assert.throws(() => new RestoreMachine().complete(), /cannot move from REGISTERED to COMPLETED/);
});
