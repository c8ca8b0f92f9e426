import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimUnlessAnsweredWithin } from './deferred-claim.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a task answered within the claim delay sends no claim; one still unanswered after it sends exactly one', async () => {
  let sent = 0;
  const answeredFast = new AbortController();
  claimUnlessAnsweredWithin(30, answeredFast.signal, async () => void sent++);
  answeredFast.abort();
  const slow = new AbortController();
  claimUnlessAnsweredWithin(30, slow.signal, async () => void sent++);
  await sleep(80);
  slow.abort();
  await sleep(40);
  assert.equal(sent, 1);
});

test('a claim whose write fails does not surface as an unhandled rejection', async () => {
  const answered = new AbortController();
  claimUnlessAnsweredWithin(1, answered.signal, async () => Promise.reject(new Error('broker gone')));
  await sleep(20);
});
