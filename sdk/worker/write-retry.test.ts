import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecordTooLargeError } from '../../topics/errors.js';
import { TaskHandedBackError } from './task-handed-back-error.js';
import { writeWithRetry } from './write-retry.js';

test('a write that fails at first is tried again with backoff until it lands', async () => {
  let tries = 0;
  const started = Date.now();
  await writeWithRetry(async () => {
    if (++tries < 4) throw new Error('broker unreachable');
  }, new AbortController().signal, 'the completion');
  assert.equal(tries, 4);
  assert.ok(Date.now() - started >= 100 + 200 + 400 - 20, 'paused 100, 200 and 400 ms between the tries');
});

test('a write still failing when the partition is taken away hands the task back instead of giving up silently', async () => {
  const taken = new AbortController();
  let tries = 0;
  const writing = writeWithRetry(async () => {
    tries++;
    throw new Error('broker unreachable');
  }, taken.signal, 'the completion of wf-1');
  setTimeout(() => taken.abort(), 250);
  await assert.rejects(writing, (error: unknown) => error instanceof TaskHandedBackError && /the completion of wf-1/.test(error.message));
  assert.ok(tries >= 2, 'it kept trying while the partition was held');
});

test('a write that can never succeed is thrown at once, for the caller to answer the task otherwise', async () => {
  let tries = 0;
  await assert.rejects(
    writeWithRetry(async () => {
      tries++;
      throw new RecordTooLargeError('record of 3 MiB is over the limit');
    }, new AbortController().signal, 'the completion'),
    RecordTooLargeError,
  );
  assert.equal(tries, 1);
});

test('the first try is made even after the partition was taken away, so a late result still reaches the engine', async () => {
  const taken = new AbortController();
  taken.abort();
  let tries = 0;
  await writeWithRetry(async () => void tries++, taken.signal, 'the result');
  assert.equal(tries, 1);
});
