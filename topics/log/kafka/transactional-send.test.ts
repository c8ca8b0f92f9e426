import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutgoingRecord } from '../log.js';
import { toTopicMessages } from './kafka-log.js';
import { leadingPartitionRun, sendWithoutDuplicates, type SendBatchTransaction } from './transactional-send.js';
import { leadershipView, type LeadershipCluster } from './producer-leadership.js';

const quick = { attempts: 4, firstDelayMs: 1, maxDelayMs: 2 };

/** A KafkaJS error as its errors.js builds them (the classes are not named exports of its ES module face). */
const kafkaJsError = (name: string, message: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(message), { name, retriable: true, ...fields });
/** What KafkaJS throws from `sendBatch` with `retries: 0`: the last error, wrapped. */
const exhausted = (cause: Error) => kafkaJsError('KafkaJSNumberOfRetriesExceeded', cause.message, { retriable: false, cause });
const concurrentTransactions = () => exhausted(kafkaJsError('KafkaJSProtocolError', 'another concurrent operation on the same transaction was ongoing', { type: 'CONCURRENT_TRANSACTIONS', code: 51 }));

/** A transaction whose sends fail with the given errors, in turn, then succeed; it records what it was asked to send. */
function scriptedTransaction(failures: Array<Error | undefined>) {
  const sends: string[][] = [];
  const tx: SendBatchTransaction = {
    async sendBatch({ topicMessages }) {
      sends.push(topicMessages.flatMap((t) => t.messages.map((m) => `${t.topic}/${m.partition ?? '?'}/${String(m.key)}`)));
      const failure = failures.shift();
      if (failure) throw failure;
    },
  };
  return { tx, sends };
}

const record = (topic: string, partition: number | undefined, key: string): OutgoingRecord => ({ topic, key, value: Buffer.from(key), ...(partition === undefined ? {} : { partition }) });
const batch = [record('history', 3, 'e1'), record('history', 3, 'e2'), record('state', 3, 's'), record('history', 3, 'e3'), record('tasks', undefined, 't')];

test('the records for the first record\'s partition are sent alone first, then the rest in one send, each partition keeping its order', async () => {
  const { tx, sends } = scriptedTransaction([]);
  await sendWithoutDuplicates(tx, batch, toTopicMessages, undefined, quick);
  assert.deepEqual(sends, [['history/3/e1', 'history/3/e2'], ['state/3/s', 'history/3/e3', 'tasks/?/t']]);
});

test('a first record without a partition (its key decides) is sent alone first', () => {
  assert.deepEqual(leadingPartitionRun([record('tasks', undefined, 'a'), record('tasks', undefined, 'b')]).map((r) => r.key), ['a']);
  assert.deepEqual(leadingPartitionRun([]), []);
});

test('CONCURRENT_TRANSACTIONS on the one-partition first send is tried again, since AddPartitionsToTxn failed before anything was produced', async () => {
  const { tx, sends } = scriptedTransaction([concurrentTransactions(), concurrentTransactions()]);
  await sendWithoutDuplicates(tx, batch, toTopicMessages, undefined, quick);
  assert.equal(sends.length, 4);
  assert.deepEqual(sends[2], sends[0]);
});

test('CONCURRENT_TRANSACTIONS on a send to several partitions is not tried again: another broker may have written its share', async () => {
  const { tx, sends } = scriptedTransaction([undefined, concurrentTransactions()]);
  await assert.rejects(sendWithoutDuplicates(tx, batch, toTopicMessages, undefined, quick), (e: Error) => e.name === 'KafkaJSNumberOfRetriesExceeded');
  assert.equal(sends.length, 2);
});

test('a send that failed for want of metadata (before any Produce request) is tried again, a timed-out one is not', async () => {
  const missingMetadata = exhausted(kafkaJsError('KafkaJSMetadataNotLoaded', 'Producing to topic without metadata'));
  const retried = scriptedTransaction([undefined, missingMetadata]);
  await sendWithoutDuplicates(retried.tx, batch, toTopicMessages, undefined, quick);
  assert.equal(retried.sends.length, 3);

  const timedOut = scriptedTransaction([exhausted(kafkaJsError('KafkaJSRequestTimeoutError', 'Request Produce(key: 0, version: 7) timed out'))]);
  await assert.rejects(sendWithoutDuplicates(timedOut.tx, batch, toTopicMessages, undefined, quick));
  assert.equal(timedOut.sends.length, 1);
});

test('a send that keeps failing with CONCURRENT_TRANSACTIONS gives up after the configured attempts', async () => {
  const { tx, sends } = scriptedTransaction(Array.from({ length: 10 }, concurrentTransactions));
  await assert.rejects(sendWithoutDuplicates(tx, batch, toTopicMessages, undefined, quick));
  assert.equal(sends.length, quick.attempts);
});

/** A cluster as KafkaJS's, with `leaders` naming each topic's partition leaders (`leaders.state[3] = '2'` moves one). */
function clusterWith(leaders: Record<string, string[]>) {
  return {
    leaders,
    findTopicPartitionMetadata: (topic: string) => (leaders[topic] ?? []).map((_, partitionId) => ({ partitionId })),
    findLeaderForPartitions: (topic: string, partitions: number[]) => {
      const result: Record<string, number[]> = {};
      for (const p of partitions) (result[leaders[topic]![p]!] ??= []).push(p);
      return result;
    },
  } satisfies LeadershipCluster & { leaders: Record<string, string[]> };
}
const oneBroker = () => clusterWith({ history: ['1', '1', '1', '1'], state: ['1', '1', '1', '1'], tasks: ['1', '1'] });

/**
 * A transaction that groups each send by leader through the cluster, as KafkaJS's sendMessages
 * does (explicit partitions, or every partition of the topic for keyed records), after `beforeGrouping`
 * has run; then fails with the next of `failures`, or succeeds.
 */
function groupingTransaction(cluster: LeadershipCluster, failures: Array<Error | undefined>, beforeGrouping: () => void = () => undefined) {
  const sends: string[][] = [];
  const tx: SendBatchTransaction = {
    async sendBatch({ topicMessages }) {
      beforeGrouping();
      for (const { topic, messages } of topicMessages) {
        const named = messages.map((m) => m.partition);
        const partitions = named.includes(undefined) ? cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId) : [...new Set(named as number[])];
        cluster.findLeaderForPartitions(topic, partitions);
      }
      sends.push(topicMessages.flatMap((t) => t.messages.map((m) => `${t.topic}/${m.partition ?? '?'}/${String(m.key)}`)));
      const failure = failures.shift();
      if (failure) throw failure;
    },
  };
  return { tx, sends };
}

test('records that all go to one leader, by the producer\'s own metadata, are sent in one send, in their order', async () => {
  const cluster = oneBroker();
  const { tx, sends } = groupingTransaction(cluster, []);
  await sendWithoutDuplicates(tx, batch, toTopicMessages, leadershipView(cluster), quick);
  assert.deepEqual(sends, [['history/3/e1', 'history/3/e2', 'history/3/e3', 'state/3/s', 'tasks/?/t']]);
});

test('CONCURRENT_TRANSACTIONS on a one-leader send that KafkaJS grouped under one leader is tried again', async () => {
  const cluster = oneBroker();
  const { tx, sends } = groupingTransaction(cluster, [concurrentTransactions(), concurrentTransactions()]);
  await sendWithoutDuplicates(tx, batch, toTopicMessages, leadershipView(cluster), quick);
  assert.equal(sends.length, 3);
  assert.deepEqual(sends[2], sends[0]);
});

test('CONCURRENT_TRANSACTIONS is not tried again when KafkaJS grouped the send under two leaders (a leader moved after the check): another broker may have written its share', async () => {
  const cluster = oneBroker();
  const { tx, sends } = groupingTransaction(cluster, [concurrentTransactions()], () => void (cluster.leaders.state![3] = '2'));
  await assert.rejects(sendWithoutDuplicates(tx, batch, toTopicMessages, leadershipView(cluster), quick), (e: Error) => e.name === 'KafkaJSNumberOfRetriesExceeded');
  assert.equal(sends.length, 1);
});

test('records whose partitions have two leaders, or a keyed record whose topic has, keep the split: the first partition alone, then the rest', async () => {
  const twoLeaders = clusterWith({ history: ['1', '1', '1', '1'], state: ['1', '1', '1', '2'], tasks: ['1', '1'] });
  const split = groupingTransaction(twoLeaders, []);
  await sendWithoutDuplicates(split.tx, batch, toTopicMessages, leadershipView(twoLeaders), quick);
  assert.equal(split.sends.length, 2);

  const keyedOnTwo = clusterWith({ history: ['1', '1', '1', '1'], state: ['1', '1', '1', '1'], tasks: ['1', '2'] });
  assert.equal(leadershipView(keyedOnTwo).leaderCount(batch), 2);
  assert.equal(leadershipView(oneBroker()).leaderCount(batch), 1);
});

test('a topic or partition the producer has no metadata for leaves the leader count unknown', () => {
  assert.equal(leadershipView(clusterWith({ history: ['1'] })).leaderCount([record('history', 0, 'a'), record('state', 0, 'b')]), undefined);
  assert.equal(leadershipView(clusterWith({ history: ['1'] })).leaderCount([record('history', 5, 'a')]), undefined);
});
