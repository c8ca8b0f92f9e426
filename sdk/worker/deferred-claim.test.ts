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

test('a claim sent early goes out at once and only once; after the answer it is not sent at all', async () => {
  let sent = 0;
  const running = new AbortController();
  const claim = claimUnlessAnsweredWithin(30, running.signal, async () => void sent++);
  claim.now();
  claim.now();
  assert.equal(sent, 1, 'sent at once');
  await sleep(60);
  assert.equal(sent, 1, 'the timer does not send it again');
  const answered = new AbortController();
  const late = claimUnlessAnsweredWithin(30, answered.signal, async () => void sent++);
  answered.abort();
  late.now();
  await sleep(60);
  assert.equal(sent, 1, 'nothing after the answer');
});

test('a dropped claim is never sent, whether by the delay, at once or taken over', async () => {
  let sent = 0;
  const answered = new AbortController();
  const claim = claimUnlessAnsweredWithin(20, answered.signal, async () => void sent++);
  claim.drop();
  claim.now();
  assert.equal(claim.take(), false, 'nothing to take over');
  await sleep(60);
  assert.equal(sent, 0);
});

test('a claim taken over is not sent by the delay, and only a pending one can be taken over', async () => {
  let sent = 0;
  const answered = new AbortController();
  const claim = claimUnlessAnsweredWithin(20, answered.signal, async () => void sent++);
  assert.equal(claim.take(), true);
  assert.equal(claim.take(), false, 'taken once');
  await sleep(60);
  assert.equal(sent, 0, 'the caller sends it its own way');
  const sentAlready = claimUnlessAnsweredWithin(20, answered.signal, async () => void sent++);
  sentAlready.now();
  assert.equal(sentAlready.take(), false);
  assert.equal(sent, 1);
});
