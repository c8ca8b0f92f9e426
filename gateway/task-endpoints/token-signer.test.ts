import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { HttpError } from '../http-errors.js';
import { TokenSigner, taskTokenKeyOf } from './token-signer.js';

const refusedWith = (status: number) => (error: unknown) => error instanceof HttpError && error.status === status;

test("gateways sharing a key take each other's tokens; a gateway with another key refuses them with 403", () => {
  const key = randomBytes(32);
  const token = new TokenSigner(key).sign('payload');
  assert.equal(new TokenSigner(Buffer.from(key)).verify(token), 'payload');
  assert.throws(() => new TokenSigner(randomBytes(32)).verify(token), refusedWith(403));
});

test('a token whose payload or signature changed by one character is refused with 403; no signature at all is a 400', () => {
  const signer = new TokenSigner();
  const token = signer.sign('eyJhIjoxfQ');
  assert.throws(() => signer.verify(`eyJhIjoyfQ${token.slice(token.indexOf('.'))}`), refusedWith(403));
  // Every other last character: base64 leaves spare bits there, which must not let an edit through.
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
    if (!token.endsWith(c)) assert.throws(() => signer.verify(`${token.slice(0, -1)}${c}`), refusedWith(403), `last character ${c}`);
  }
  assert.throws(() => signer.verify(`${token}x`), refusedWith(403));
  assert.throws(() => signer.verify('eyJhIjoxfQ'), refusedWith(400));
  assert.throws(() => signer.verify(''), refusedWith(400));
  assert.throws(() => signer.verify(42), refusedWith(400));
});

test('a key is 32 bytes or more, given as hex or base64; a shorter one is refused naming the flag', () => {
  assert.equal(taskTokenKeyOf('ab'.repeat(32)).length, 32);
  assert.equal(taskTokenKeyOf(randomBytes(48).toString('base64')).length, 48);
  assert.throws(() => taskTokenKeyOf('abcd'), /--task-token-key \(LOGBOOK_TASK_TOKEN_KEY\) must hold at least 32 bytes/);
  assert.throws(() => new TokenSigner(randomBytes(8)), /at least 32 bytes/);
});
