import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { auditHistoryTopic, type HistoryTopicRecord } from './history-topic-audit.js';

const onShard = (shard: number) => () => shard;

function event(workflowId: string, eventId: number, runId = 'r1'): HistoryEvent {
  return {
    namespace: 'default', workflowId, runId, workflowType: 't', taskQueue: 'q', eventId, eventTime: 1_000 + eventId,
    attributes: { type: 'TimerFired', timerId: '1', startedEventId: 1 },
  } as HistoryEvent;
}

function record(e: HistoryEvent, offset: number, overrides: Partial<HistoryTopicRecord> = {}): HistoryTopicRecord {
  return { partition: 0, offset, key: `${e.namespace}/${e.workflowId}/${e.runId}/${e.eventId}`, digest: `d-${e.workflowId}-${e.eventId}`, event: e, ...overrides };
}

function runOf(workflowId: string, events: number, firstOffset = 0): HistoryTopicRecord[] {
  return Array.from({ length: events }, (_, i) => record(event(workflowId, i + 1), firstOffset + i));
}

test('a clean history topic has no duplicated event and no gap, and each run comes back in event id order', () => {
  const records = [...runOf('a', 5), ...runOf('b', 3, 10)].reverse();
  const { audit, runs } = auditHistoryTopic(records, onShard(0));
  assert.equal(audit.records, 8);
  assert.equal(audit.events, 8);
  assert.equal(audit.runs, 2);
  assert.equal(audit.duplicatedEvents, 0);
  assert.equal(audit.gappedRuns, 0);
  assert.equal(audit.keyMismatches, 0);
  assert.equal(audit.wrongShard, 0);
  assert.deepEqual(runs.get('default/a/r1')?.map((e) => e.eventId), [1, 2, 3, 4, 5]);
});

test('a second byte-identical copy of an event key counts as one duplicated event, with both positions', () => {
  const records = [...runOf('a', 3), record(event('a', 2), 7)];
  const { audit, runs } = auditHistoryTopic(records, onShard(0));
  assert.equal(audit.duplicatedEvents, 1);
  assert.equal(audit.duplicatedKeys, 1);
  assert.deepEqual(audit.duplicates[0], {
    key: 'default/a/r1/2', copies: 2, positions: [{ partition: 0, offset: 1 }, { partition: 0, offset: 7 }], identical: true, eventType: 'TimerFired',
    eventTime: 1_002, offsetsWithoutRecordBetween: 4,
  });
  assert.deepEqual(runs.get('default/a/r1')?.map((e) => e.eventId), [1, 2, 3], 'the run keeps one event per id');
});

test('copies of a key with different bytes are reported as an overwrite, not as identical', () => {
  const records = [...runOf('a', 2), record(event('a', 2), 9, { digest: 'other' }), record(event('a', 2), 10)];
  const { audit } = auditHistoryTopic(records, onShard(0));
  assert.equal(audit.duplicatedEvents, 2);
  assert.equal(audit.duplicates[0]?.identical, false);
});

test('a run whose event ids skip some is reported with the ids that are missing', () => {
  const records = runOf('a', 6).filter((r) => r.event!.eventId !== 3 && r.event!.eventId !== 5);
  const { audit } = auditHistoryTopic(records, onShard(0));
  assert.equal(audit.gappedRuns, 1);
  assert.deepEqual(audit.gaps[0], { run: 'default/a/r1', highestEventId: 6, missing: [3, 5] });
});

test('a run that does not begin at event 1 is a gap too', () => {
  const records = runOf('a', 3).slice(1);
  assert.deepEqual(auditHistoryTopic(records, onShard(0)).audit.gaps[0]?.missing, [1]);
});

test('a record keyed unlike its event, or on another partition than its shard, is counted with the expected place', () => {
  const e = event('a', 1);
  const { audit } = auditHistoryTopic([record(e, 0, { key: 'default/a/r1/9' })], onShard(3));
  assert.equal(audit.keyMismatches, 1);
  assert.deepEqual(audit.keyMismatchExamples[0], { partition: 0, offset: 0, key: 'default/a/r1/9', expected: 'default/a/r1/1' });
  assert.equal(audit.wrongShard, 1);
  assert.equal(audit.wrongShardExamples[0]?.expected, 'partition 3');
});

test('tombstones and undecodable values are counted apart and are not events', () => {
  const records: HistoryTopicRecord[] = [
    ...runOf('a', 1),
    { partition: 0, offset: 1, key: 'default/a/r1/1', digest: '' },
    { partition: 0, offset: 2, key: 'x', digest: 'bad', decodeError: 'first bytes 0xffff are neither C301 nor 00' },
  ];
  const { audit } = auditHistoryTopic(records, onShard(0));
  assert.equal(audit.records, 3);
  assert.equal(audit.events, 1);
  assert.equal(audit.tombstones, 1);
  assert.equal(audit.undecodable, 1);
  assert.equal(audit.undecodableExamples[0]?.offset, 2);
  assert.equal(audit.duplicatedEvents, 0, 'a tombstone of a key is not a second copy of its event');
});

test('copies with no free offset between them were written in one transaction; a commit marker between them shows as an empty offset', () => {
  const sameTransaction = [...runOf('a', 3), ...runOf('a', 3, 3)];
  assert.equal(auditHistoryTopic(sameTransaction, onShard(0)).audit.duplicates[0]?.offsetsWithoutRecordBetween, 0);
  const twoTransactions = [...runOf('a', 3), ...runOf('a', 3, 4)];
  assert.equal(auditHistoryTopic(twoTransactions, onShard(0)).audit.duplicates[0]?.offsetsWithoutRecordBetween, 1);
});
