import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { DEAD_LETTER_MAX_VALUE_BYTES, DeadLetterHeaders, deadLetterRecord } from './dead-letter.js';
import { recordSize } from './log/record-size.js';

test('a dead letter of a 3 MB record keeps a bounded prefix and says what was cut, so it always fits in a record', () => {
  const source = { topic: 'lb.commands', partition: 2, offset: 41, key: randomBytes(200_000), value: randomBytes(3_000_000), headers: { big: randomBytes(100_000) }, timestamp: 0 };
  const dead = deadLetterRecord('lb.commands.dlq', source, 'DECODE_FAILED', 'not Avro', 'decode');
  assert.ok(recordSize(dead) < 100 * 1024, `dead letter is ${recordSize(dead)} bytes`);
  assert.equal((dead.value as Buffer).length, DEAD_LETTER_MAX_VALUE_BYTES);
  assert.deepEqual((dead.value as Buffer).subarray(0, 16), source.value.subarray(0, 16));
  const headers = dead.headers as Record<string, string>;
  assert.match(headers[DeadLetterHeaders.truncated]!, /key 200000 bytes, value 3000000 bytes, headers \d+ bytes \(dropped\)/);
  assert.equal(headers[DeadLetterHeaders.sourceOffset], '41');
  assert.equal(headers[DeadLetterHeaders.step], 'decode');
  assert.equal(headers.big, undefined);
});

test('a dead letter of an ordinary record copies key, value and headers unchanged and names the step', () => {
  const source = { topic: 'lb.commands', partition: 0, offset: 7, key: Buffer.from('default/a'), value: Buffer.from('xyz'), headers: { trace: Buffer.from('t-1') }, timestamp: 0 };
  const dead = deadLetterRecord('lb.commands.dlq', source, 'KEY_MISMATCH', 'wrong key', 'decode');
  assert.deepEqual(dead.key, source.key);
  assert.deepEqual(dead.value, source.value);
  const headers = dead.headers as Record<string, Buffer | string>;
  assert.deepEqual(headers.trace, source.headers.trace);
  assert.equal(headers[DeadLetterHeaders.truncated], undefined);
});
