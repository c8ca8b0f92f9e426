import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CommitOutcomeUnknownError, FencedError } from '../../errors.js';
import { breaksIdempotentProducer, transactionError } from './kafka-errors.js';

/** What KafkaJS throws from a send with its retries off: the last error, wrapped. */
const exhausted = (cause: object) => Object.assign(new Error('retries exceeded'), { name: 'KafkaJSNumberOfRetriesExceeded', retriable: false, cause });

test('a transaction that failed for a lost connection or a timeout is an unknown outcome the infrastructure caused (retriable), so it never counts against the inputs', () => {
  for (const cause of [{ name: 'KafkaJSConnectionError', message: 'Connection error: ECONNREFUSED', retriable: true }, { name: 'KafkaJSRequestTimeoutError', message: 'Request Produce timed out', retriable: true }]) {
    const mapped = transactionError('send', 'lb-history-0', exhausted(cause));
    assert.ok(mapped instanceof CommitOutcomeUnknownError);
    assert.equal(mapped.retriable, true, cause.name);
  }
});

test('a broker that refuses what was sent (a record too large) is an unknown outcome that may be an input\'s fault (not retriable); a fence is a fence', () => {
  const tooLarge = transactionError('send', 'lb-history-0', exhausted({ name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE', message: 'too large', retriable: false }));
  assert.ok(tooLarge instanceof CommitOutcomeUnknownError);
  assert.equal(tooLarge.retriable, false);
  assert.ok(transactionError('commit', 'lb-history-0', { name: 'KafkaJSProtocolError', type: 'PRODUCER_FENCED', message: 'fenced' }) instanceof FencedError);
});

test('an idempotent producer whose sequence numbers or id the broker no longer accepts must be replaced; other failures keep it', () => {
  for (const type of ['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID']) assert.equal(breaksIdempotentProducer(exhausted({ name: 'KafkaJSProtocolError', type, message: type })), true, type);
  assert.equal(breaksIdempotentProducer(exhausted({ name: 'KafkaJSConnectionError', message: 'ECONNREFUSED', retriable: true })), false);
});
