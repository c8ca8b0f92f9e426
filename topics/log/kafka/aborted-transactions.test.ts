import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { withoutAbortedRecords, type FetchedMessage } from './aborted-transactions.js';

const require = createRequire(import.meta.url);
const ABORT = Buffer.from([0, 0, 0, 0]);
const COMMIT = Buffer.from([0, 0, 0, 1]);

const record = (offset: number, producerId: string, inTransaction = true): FetchedMessage => ({
  offset: String(offset), key: Buffer.from(`k${offset}`), batchContext: { producerId, inTransaction },
});
const marker = (offset: number, producerId: string, key: Buffer): FetchedMessage => ({
  offset: String(offset), key, isControlRecord: true, batchContext: { producerId, inTransaction: true },
});
const dataOffsets = (messages: readonly FetchedMessage[]) => messages.filter((m) => !m.isControlRecord).map((m) => Number(m.offset));

// Producers 1 and 2 each wrote two records in a transaction that was aborted (markers at 4 and 5);
// producer 3 then committed one (offset 6). A fetch from offset 1 starts inside both aborted ones.
const interleaved = [record(1, '2'), record(2, '1'), record(3, '2'), marker(4, '1', ABORT), marker(5, '2', ABORT), record(6, '3'), marker(7, '3', COMMIT)];
const bothAborted = [{ producerId: '1', firstOffset: '0' }, { producerId: '2', firstOffset: '1' }];

test('a fetch that starts inside two overlapping aborted transactions yields only the committed record', () => {
  assert.deepEqual(dataOffsets(withoutAbortedRecords(interleaved, bothAborted)), [6]);
});

test("KafkaJS 2.2.4's own filter hands the first record of the second aborted transaction over as committed (why Logbook replaces it)", () => {
  const kafkaJsFilter = require('kafkajs/src/consumer/filterAbortedMessages.js') as (input: { messages: FetchedMessage[]; abortedTransactions: unknown[] }) => FetchedMessage[];
  assert.deepEqual(dataOffsets(kafkaJsFilter({ messages: interleaved, abortedTransactions: bothAborted })), [1, 6]);
});

test('aborted transactions listed by abort marker rather than by first offset are all honoured', () => {
  const messages = [record(3, '1'), record(5, '2'), record(6, '1'), marker(7, '2', ABORT), marker(8, '1', ABORT), record(9, '4', false)];
  const byMarker = [{ producerId: '2', firstOffset: '5' }, { producerId: '1', firstOffset: '3' }];
  assert.deepEqual(dataOffsets(withoutAbortedRecords(messages, byMarker)), [9]);
});

test("a producer's committed transaction after its aborted one is kept, and records outside transactions always are", () => {
  const messages = [record(0, '1'), marker(1, '1', ABORT), record(2, '1'), record(3, '9', false), marker(4, '1', COMMIT)];
  assert.deepEqual(dataOffsets(withoutAbortedRecords(messages, [{ producerId: '1', firstOffset: '0' }])), [2, 3]);
});

test('a producer aborted twice in one fetch has both transactions removed', () => {
  const messages = [record(0, '1'), marker(1, '1', ABORT), record(2, '2'), record(3, '1'), marker(4, '1', ABORT), marker(5, '2', COMMIT)];
  const aborted = [{ producerId: '1', firstOffset: '0' }, { producerId: '1', firstOffset: '3' }];
  assert.deepEqual(dataOffsets(withoutAbortedRecords(messages, aborted)), [2]);
});

test("once topics/log/kafka/kafkajs.ts is loaded, KafkaJS's consumer batches use Logbook's filter", async () => {
  await import('./kafkajs.js');
  const Batch = require('kafkajs/src/consumer/batch.js') as new (topic: string, fetchedOffset: string, data: object) => { messages: FetchedMessage[] };
  const batch = new Batch('t', '1', { partition: 0, highWatermark: '8', messages: interleaved, abortedTransactions: bothAborted });
  assert.deepEqual(dataOffsets(batch.messages), [6]);
});
