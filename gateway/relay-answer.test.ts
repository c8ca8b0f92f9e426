import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { relayAnswer } from './http-errors.js';

/** Serves `owner` answers through relayAnswer, as a gateway forwarding a read to the shard's owner does. */
async function relayed(owner: globalThis.Response): Promise<globalThis.Response> {
  const app = express();
  app.get('/', async (_req, res) => relayAnswer(res, owner));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    server.close();
  }
}

test("a forwarded 503 keeps the owner's Retry-After (once lost, so the caller was told neither to retry nor when)", async () => {
  const answer = await relayed(new Response('{"code":"SHARD_UNAVAILABLE"}', { status: 503, headers: { 'retry-after': '2' } }));
  assert.equal(answer.status, 503);
  assert.equal(answer.headers.get('retry-after'), '2');
  assert.deepEqual(await answer.json(), { code: 'SHARD_UNAVAILABLE' });
});

test('a forwarded 503 without Retry-After gets one, and other answers pass unchanged without it', async () => {
  assert.equal((await relayed(new Response('{}', { status: 503 }))).headers.get('retry-after'), '1');
  const ok = await relayed(new Response('{"status":"Running"}', { status: 200 }));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('retry-after'), null);
  assert.deepEqual(await ok.json(), { status: 'Running' });
});
