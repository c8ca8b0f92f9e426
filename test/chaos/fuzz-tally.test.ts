import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FuzzTally, judgeFuzzAnswer, type FuzzAnswer } from './fuzz-tally.js';

const window = { kind: 'engine-kill' as const, target: 'engine-1', from: 1_000, to: 2_000 };
const answer = (overrides: Partial<FuzzAnswer>): FuzzAnswer => ({ route: 'GET describe', method: 'GET', path: '/x', ownWaitMs: 0, node: 'engine-1', sentAt: 1_500, elapsedMs: 20, status: 200, ...overrides });

test('a 503 with Retry-After is allowed inside a failover window only; any other 5xx is a server error', () => {
  assert.equal(judgeFuzzAnswer(answer({ status: 503, retryAfter: '1' }), [window]), 'allowed-503');
  assert.equal(judgeFuzzAnswer(answer({ status: 503, retryAfter: '1', sentAt: 5_000 }), [window]), 'server-error');
  assert.equal(judgeFuzzAnswer(answer({ status: 503 }), [window]), 'server-error', 'no Retry-After');
  assert.equal(judgeFuzzAnswer(answer({ status: 504 }), [window]), 'server-error');
  assert.equal(judgeFuzzAnswer(answer({ status: 500 }), [window]), 'server-error');
  assert.equal(judgeFuzzAnswer(answer({ status: 404 }), [window]), 'ok');
});

test('a 503 with Retry-After to a request sent just before a kill and answered after it is in the failover', () => {
  assert.equal(judgeFuzzAnswer(answer({ status: 503, retryAfter: '1', sentAt: 300, elapsedMs: 900 }), [window]), 'allowed-503');
  assert.equal(judgeFuzzAnswer(answer({ status: 503, retryAfter: '1', sentAt: 300, elapsedMs: 600 }), [window]), 'server-error', 'answered before the kill');
});

test('an answer later than its own wait plus 10 s is a hang, whatever its status; a cut-off long wait is abandoned, not hung', () => {
  assert.equal(judgeFuzzAnswer(answer({ ownWaitMs: 2_000, elapsedMs: 11_000 }), []), 'ok');
  assert.equal(judgeFuzzAnswer(answer({ ownWaitMs: 2_000, elapsedMs: 12_500 }), []), 'hang');
  assert.equal(judgeFuzzAnswer(answer({ status: undefined, timedOut: true, ownWaitMs: 30_000, elapsedMs: 40_500 }), []), 'hang');
  assert.equal(judgeFuzzAnswer(answer({ status: undefined, timedOut: true, ownWaitMs: 3_600_000, elapsedMs: 70_500 }), []), 'abandoned');
});

test('no answer from a node killed meanwhile is dropped by the kill; from a live node, a connection error', () => {
  assert.equal(judgeFuzzAnswer(answer({ status: undefined, error: 'ECONNRESET', targetKilled: true }), []), 'dropped-by-kill');
  assert.equal(judgeFuzzAnswer(answer({ status: undefined, timedOut: true, targetKilled: true, ownWaitMs: 1_000, elapsedMs: 11_500 }), []), 'dropped-by-kill');
  assert.equal(judgeFuzzAnswer(answer({ status: undefined, error: 'ECONNREFUSED' }), []), 'connection-error');
});

test('the tally counts every status and judges only the suspects, with examples per kind of failure', () => {
  const tally = new FuzzTally();
  for (let i = 0; i < 10; i++) tally.add(answer({ status: 400 }));
  tally.add(answer({ status: 500, bodySample: '{"code":"INTERNAL","message":"boom"}', route: 'GET list' }));
  tally.add(answer({ status: 503, retryAfter: '1' }));
  tally.add(answer({ status: 503, retryAfter: '1', sentAt: 9_000 }));
  const figures = tally.figures([window]);
  assert.equal(figures.requests, 13);
  assert.deepEqual(figures.byStatus, { 400: 10, 500: 1, 503: 2 });
  assert.equal(figures.byJudgement.ok, 10);
  assert.equal(figures.byJudgement['allowed-503'], 1);
  assert.equal(figures.serverErrors, 2);
  assert.deepEqual(figures.serverErrorsByKind, { '500 INTERNAL on GET list': 1, '503 - on GET describe': 1 });
  assert.deepEqual(figures.examples.map((e) => e.status), [500, 503, 503], 'the failures and the allowed 503, as evidence');
  assert.deepEqual(figures.serverErrorsByStatus, { 500: 1, 503: 1 });
  assert.deepEqual(figures.serverErrorMessages, { '500 INTERNAL: boom': 1, '503 -: (no body)': 1 });
  assert.deepEqual(tally.provisional([]), { serverErrors: 3, hangs: 0 });
});

test('a 504 for a result that did not come within the short timeout the request asked for is counted, and shown apart', () => {
  const tally = new FuzzTally();
  tally.add(answer({ route: 'GET result', ownWaitMs: 1_000, elapsedMs: 1_050, status: 504, bodySample: '{"code":"REPLY_TIMEOUT","message":"no reply"}' }));
  tally.add(answer({ route: 'hostile path', ownWaitMs: 60_000, elapsedMs: 30_000, status: 504, bodySample: '{"code":"REPLY_TIMEOUT","message":"no reply"}' }));
  const figures = tally.figures([]);
  assert.equal(figures.serverErrors, 2);
  assert.equal(figures.timeoutsAsAsked, 1);
});

test("5xx messages are grouped with the values they quote, ids and numbers blanked", () => {
  const tally = new FuzzTally();
  for (const param of ['%zz', '%FF%FE']) tally.add(answer({ status: 500, bodySample: `{"code":"INTERNAL","message":"Failed to decode param '${param}'"}` }));
  tally.add(answer({ status: 504, bodySample: '{"code":"REPLY_TIMEOUT","message":"no reply to request 769fd3aa-b6d3-4ac3-9112-88cb0e00990d within 500 ms"}' }));
  assert.deepEqual(tally.figures([]).serverErrorMessages, { "500 INTERNAL: Failed to decode param '…'": 2, '504 REPLY_TIMEOUT: no reply to request <id> within # ms': 1 });
});
