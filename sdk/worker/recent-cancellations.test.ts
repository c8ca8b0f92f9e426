import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecentCancellations } from './recent-cancellations.js';

test('a remembered cancellation is taken once, with its reason; an unknown key has none', () => {
  const recent = new RecentCancellations();
  recent.remember('wf:run:5', 'cancel requested by the workflow');
  assert.equal(recent.take('wf:run:6'), undefined);
  assert.equal(recent.take('wf:run:5'), 'cancel requested by the workflow');
  assert.equal(recent.take('wf:run:5'), undefined);
});

test('past its capacity the oldest cancellation is forgotten first, and remembering one again makes it the newest', () => {
  const recent = new RecentCancellations(2);
  recent.remember('a', 'r');
  recent.remember('b', 'r');
  recent.remember('a', 'again');
  recent.remember('c', 'r');
  assert.deepEqual(['a', 'b', 'c'].map((k) => recent.take(k)), ['again', undefined, 'r']);
});
