import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { answerSignals } from './answer-signals.js';

test('answering aborts both signals and leaves no listener on the partition signal, however many tasks it has', () => {
  const partition = new AbortController();
  const tasks = Array.from({ length: 100 }, () => answerSignals(partition.signal));
  assert.equal(getEventListeners(partition.signal, 'abort').length, 100);
  for (const task of tasks) task.answer();
  assert.ok(tasks.every((t) => t.answered.aborted && t.answeredOrTaken.aborted));
  assert.equal(getEventListeners(partition.signal, 'abort').length, 0);
});

test('a handed-back partition aborts only the combined signal, with its reason; one handed back already is aborted from the start', () => {
  const partition = new AbortController();
  const task = answerSignals(partition.signal);
  const reason = new Error('handed back');
  partition.abort(reason);
  assert.equal(task.answeredOrTaken.aborted && task.answeredOrTaken.reason, reason);
  assert.equal(task.answered.aborted, false);
  const late = answerSignals(partition.signal);
  assert.equal(late.answeredOrTaken.reason, reason);
  assert.equal(late.answered.aborted, false);
});
