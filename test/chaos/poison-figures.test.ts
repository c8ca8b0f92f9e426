import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchPoison, suspectPoison, type DeadLetter } from './poison-figures.js';
import type { FailureGroup } from './shard-failures.js';
import type { SentPoison } from './poison-sender.js';

const sent = (kind: SentPoison['kind'], partition: number, offset: number | null): SentPoison => ({ kind, note: kind, partition, offset, sentAt: 0, keyBytes: 1, valueBytes: 1, ...(offset === null ? { error: 'MESSAGE_TOO_LARGE' } : {}) });
const letter = (sourcePartition: number, sourceOffset: number, code = 'DECODE_UNKNOWN_FORMAT', sourceTopic = 'p.commands'): DeadLetter => ({ offset: 0, code, reason: 'r', sourceTopic, sourcePartition, sourceOffset, valueBytes: 1 });

test('a dead letter naming the position of a poison record counts for that record and its kind', () => {
  const poison = [sent('random-bytes', 1, 10), sent('random-bytes', 2, 11), sent('namespace-dot', 3, 12)];
  const { figures, notDeadLettered, codes, matched } = matchPoison(poison, [letter(1, 10), letter(3, 12, 'InvalidArgument')], 'p.commands');
  assert.deepEqual(figures, { sent: 3, failedToSend: 0, deadLettered: 2, byKind: { 'random-bytes': { sent: 2, deadLettered: 1 }, 'namespace-dot': { sent: 1, deadLettered: 1 } }, otherDeadLetters: 0 });
  assert.deepEqual(notDeadLettered.map((p) => p.offset), [11]);
  assert.deepEqual(codes, { DECODE_UNKNOWN_FORMAT: 1, InvalidArgument: 1 });
  assert.deepEqual(matched.map((m) => m.kind), ['random-bytes', 'namespace-dot']);
});

test('records Kafka refused are not counted as sent, and dead letters of other inputs or topics are counted apart', () => {
  const poison = [sent('random-3mb', 0, null), sent('empty-key', 0, 5)];
  const { figures } = matchPoison(poison, [letter(0, 5), letter(0, 6), letter(0, 5, 'X', 'p.commands.internal')], 'p.commands');
  assert.equal(figures.sent, 1);
  assert.equal(figures.failedToSend, 1);
  assert.equal(figures.deadLettered, 1);
  assert.equal(figures.otherDeadLetters, 2);
});

test('a shard failure is pinned on the last poison sent to its partition before it whose kind fits the message', () => {
  const at = (kind: SentPoison['kind'], partition: number, sentAt: number): SentPoison => ({ ...sent(kind, partition, sentAt), sentAt });
  const poison = [at('namespace-dot', 2, 100), at('random-bytes', 2, 200), at('namespace-dot', 3, 150), at('task-queue-traversal', 4, 500)];
  const group = (shard: number, message: string, firstAt: number, cause: FailureGroup['cause'] = 'input'): FailureGroup => ({ node: 'engine-1', shard, kind: 'corrupted', cause, message, count: 9, firstAt, lastAt: firstAt + 1 });
  const suspects = suspectPoison([
    group(2, "namespace 'a.b' may contain only letters", 300),
    group(4, "task queue '../../q' may contain only letters", 400),
    group(5, 'Maximum call stack size exceeded', 600),
    group(3, "namespace '.' may contain only letters", 600),
    group(6, 'fenced', 600, 'fault'),
  ], poison);
  assert.equal(suspects['engine-1 shard 2']?.suspect?.sentAt, 100, 'the random bytes sent later to shard 2 do not name a namespace');
  assert.equal(suspects['engine-1 shard 4']?.suspect, null, 'the only fitting poison came after the failure: the fuzz, or another input');
  assert.equal(suspects['engine-1 shard 5']?.suspect, null);
  assert.equal(suspects['engine-1 shard 3']?.suspect, null, "no poison carries the namespace '.': the fuzz sent it");
  assert.equal('engine-1 shard 6' in suspects, false, 'only failures caused by an input are pinned');
});

test('a record too large is pinned on the largest poison record that fits the size the message gives', () => {
  const at = (kind: SentPoison['kind'], valueBytes: number, sentAt: number): SentPoison => ({ ...sent(kind, 1, sentAt), valueBytes, keyBytes: 20, sentAt });
  const poison = [at('oversized-payload', 2_621_600, 100), at('huge-key', 120, 200)];
  const group: FailureGroup = { node: 'engine-2', shard: 1, kind: 'corrupted', cause: 'input', message: 'a record for p.commands.dlq is 2621891 bytes, over the limit of 2621440 bytes', count: 3, firstAt: 300, lastAt: 400 };
  assert.equal(suspectPoison([group], poison)['engine-2 shard 1']?.suspect?.kind, 'oversized-payload');
});
