import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CommitOutcomeUnknownError, FencedError, RecordTooLargeError } from '../../topics/errors.js';
import type { AssignmentListener, GroupConsumer, Log, LogRecord, OutgoingRecord, TopicSpec } from '../../topics/log/log.js';
import { MAX_PAYLOAD_BYTES } from '../../topics/catalog.js';
import { DeadLetterHeaders, decodeOrDeadLetter } from '../../topics/dead-letter.js';
import { withInjectedFaults } from '../support/faulty-log.js';
import { logIdentityConformance } from './log-identity-conformance.js';
import { type TestBackend, uniqueName, waitFor } from '../support/test-env.js';

/**
 * The log conformance suite: the behaviour the engine relies on, run unchanged against Kafka and
 * the embedded log.
 */

const spec = (name: string, partitions: number, compact = false): TopicSpec => ({
  name,
  partitions,
  replicationFactor: 1,
  config: { 'cleanup.policy': compact ? 'compact' : 'delete', 'max.message.bytes': String(4 * 1024 * 1024) },
});

/** All committed records of a partition, from the start. */
export async function readAll(log: Log, topic: string, partition: number): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  await log.readPartition(topic, partition, 0, (chunk) => void records.push(...chunk));
  return records;
}

/** The input position a processor stored last in its state changelog (0 when none). */
async function restorePosition(log: Log, stateTopic: string, inputTopic: string): Promise<number> {
  const records = await readAll(log, stateTopic, 0);
  const last = records.at(-1);
  return last?.value ? (JSON.parse(last.value.toString()) as Record<string, number>)[inputTopic] ?? 0 : 0;
}

/** Starts a one-partition owner that restores its position from the state changelog on assignment. */
async function startOwner(log: Log, groupId: string, input: string, state: string): Promise<GroupConsumer> {
  const consumer = log.groupConsumer({ groupId, topics: [input], endpoint: 'owner' });
  const listener: AssignmentListener = {
    onRevoked: () => undefined,
    onAssigned: (partitions) => {
      void restorePosition(log, state, input).then((offset) => {
        for (const p of partitions) consumer.seek(p, { [input]: offset });
      });
    },
  };
  await consumer.start(listener);
  return consumer;
}

async function takeExactly(consumer: GroupConsumer, partition: number, count: number): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  const deadline = Date.now() + 30_000;
  while (out.length < count && Date.now() < deadline) {
    out.push(...(await consumer.take(partition, { maxRecords: count - out.length, maxBytes: 1 << 24, waitMs: 500 })));
  }
  return out;
}

/** Registers the conformance tests for one backend. */
export function logConformance(makeBackend: () => Promise<TestBackend> | TestBackend): void {
  let backend: TestBackend;
  let log: Log;
  before(async () => {
    backend = await makeBackend();
    log = await backend.open();
  });
  after(async () => backend.cleanup());
  logIdentityConformance(() => ({ backend, log }));

  describe('transactions', () => {
    test('records of an aborted transaction are never read, and the next owner re-reads its inputs', async () => {
      const [input, output, state] = [uniqueName('in'), uniqueName('out'), uniqueName('state')];
      await log.admin.createTopics([spec(input, 1), spec(output, 1), spec(state, 1, true)]);
      const producer = await log.producer();
      await producer.send([0, 1, 2, 3, 4].map((i) => ({ topic: input, partition: 0, key: `k${i}`, value: Buffer.from(`v${i}`) })));
      const groupId = uniqueName('group');

      const first = await startOwner(log, groupId, input, state);
      const firstRead = await takeExactly(first, 0, 5);
      assert.deepEqual(firstRead.map((r) => r.offset), [0, 1, 2, 3, 4]);
      const txp = await log.transactionalProducer(uniqueName('tx'));
      const outputsOf = (records: LogRecord[]): OutgoingRecord[] => [
        ...records.map((r) => ({ topic: output, partition: 0, key: r.key, value: r.value })),
        { topic: state, partition: 0, key: 'positions', value: Buffer.from(JSON.stringify({ [input]: records.at(-1)!.offset + 1 })) },
      ];
      const aborted = await txp.begin();
      await aborted.send(outputsOf(firstRead));
      await aborted.abort();
      assert.equal((await readAll(log, output, 0)).length, 0, 'aborted outputs are invisible');
      await first.stop();

      const next = await startOwner(await backend.openAnother(log), groupId, input, state);
      const reread = await takeExactly(next, 0, 5);
      assert.deepEqual(reread.map((r) => r.offset), [0, 1, 2, 3, 4], 'the next owner re-reads every input');
      const committed = await txp.begin();
      await committed.send(outputsOf(reread));
      await committed.commit();
      // Kafka writes commit markers after EndTxn returns: committed records become visible shortly after.
      const visible = await waitFor('the committed outputs', async () => {
        const records = await readAll(log, output, 0);
        return records.length >= 5 ? records : undefined;
      });
      assert.deepEqual(visible.map((r) => r.value?.toString()), ['v0', 'v1', 'v2', 'v3', 'v4']);
      assert.equal(await restorePosition(log, state, input), 5);
      await next.stop();
      await txp.close();
    });

    test('group positions committed in a transaction take effect with its records, and an aborted transaction commits none', async () => {
      const [input, output] = [uniqueName('in'), uniqueName('out')];
      await log.admin.createTopics([spec(input, 2), spec(output, 1)]);
      const groupId = uniqueName('ingress');
      const member = log.groupConsumer({ groupId, topics: [input], endpoint: 'ingress' });
      await member.start({ onRevoked: () => undefined, onAssigned: () => undefined });
      await waitFor('an assignment', () => member.assignment().length === 2);
      const txp = await log.transactionalProducer(uniqueName('tx'));
      const aborted = await txp.begin();
      await aborted.send([{ topic: output, partition: 0, key: 'a', value: Buffer.from('aborted') }]);
      await aborted.commitGroupPositions(groupId, 1, { [input]: 4 });
      await aborted.abort();
      assert.deepEqual(await member.committedPositions(1), { [input]: 0 }, 'an aborted transaction commits no position');
      const committed = await txp.begin();
      await committed.send([{ topic: output, partition: 0, key: 'c', value: Buffer.from('committed') }]);
      await committed.commitGroupPositions(groupId, 1, { [input]: 9 });
      await committed.commit();
      const positions = await waitFor('the transaction\'s positions', async () => {
        const now = await member.committedPositions(1);
        return now[input] === 9 ? now : undefined;
      });
      assert.deepEqual(positions, { [input]: 9 });
      assert.deepEqual(await member.committedPositions(0), { [input]: 0 }, 'other partitions are untouched');
      assert.deepEqual((await readAll(log, output, 0)).map((r) => r.value?.toString()), ['committed']);
      await member.stop();
      await txp.close();
    });

    test('a newer owner of a transactional id fences the older one: its commit fails with FencedError and its records never appear', async () => {
      const output = uniqueName('out');
      await log.admin.createTopics([spec(output, 1)]);
      const id = uniqueName('tx');
      const zombie = await log.transactionalProducer(id);
      const zombieTx = await zombie.begin();
      await zombieTx.send([{ topic: output, partition: 0, key: 'z', value: Buffer.from('zombie') }]);
      const owner = await log.transactionalProducer(id);
      await assert.rejects(zombieTx.commit(), FencedError);
      const tx = await owner.begin();
      await tx.send([{ topic: output, partition: 0, key: 'o', value: Buffer.from('owner') }]);
      await tx.commit();
      const visible = await waitFor('the owner\'s committed record', async () => {
        const records = await readAll(log, output, 0);
        return records.length > 0 ? records : undefined;
      });
      assert.deepEqual(visible.map((r) => r.value?.toString()), ['owner']);
      await zombie.close().catch(() => undefined);
      await owner.close();
    });

    test('a commit that throws after the log accepted it is reported as an unknown outcome, and restoring shows its records exactly once', async () => {
      const [input, output, state] = [uniqueName('in'), uniqueName('out'), uniqueName('state')];
      await log.admin.createTopics([spec(input, 1), spec(output, 1), spec(state, 1, true)]);
      await (await log.producer()).send([{ topic: input, partition: 0, key: 'a', value: Buffer.from('work') }]);
      let injected = 0;
      const faulty = withInjectedFaults(log, { failCommitAfterAccepted: () => injected++ === 0 });
      const id = uniqueName('tx');
      const process = async () => {
        // Fence first: initialising the id waits for the previous owner's transaction to finish,
        // so the restore below sees its outcome.
        const producer = await faulty.transactionalProducer(id);
        const position = await restorePosition(log, state, input);
        const inputs = (await readAll(log, input, 0)).filter((r) => r.offset >= position);
        if (inputs.length === 0) return;
        const tx = await producer.begin();
        await tx.send([
          { topic: output, partition: 0, key: 'a', value: inputs[0]!.value },
          { topic: state, partition: 0, key: 'positions', value: Buffer.from(JSON.stringify({ [input]: inputs.at(-1)!.offset + 1 })) },
        ]);
        await tx.commit();
      };
      await assert.rejects(process(), CommitOutcomeUnknownError);
      // The remedy: re-fence (a new producer for the id) and restore before processing again.
      await process();
      await process();
      assert.equal(injected, 1, 'the second run found nothing left to process');
      assert.deepEqual((await readAll(log, output, 0)).map((r) => r.value?.toString()), ['work']);
    });
  });

  describe('reading', () => {
    test('a partition that ends in transaction markers is read to its end and reported caught up', async () => {
      const topic = uniqueName('changelog');
      await log.admin.createTopics([spec(topic, 1, true)]);
      const txp = await log.transactionalProducer(uniqueName('tx'));
      for (let batch = 0; batch < 3; batch++) {
        const tx = await txp.begin();
        await tx.send([0, 1].map((i) => ({ topic, partition: 0, key: `k${batch}-${i}`, value: Buffer.from('v') })));
        await tx.commit();
      }
      // The last commit's markers may still be on their way; wait until its records are readable.
      const { seen, result } = await waitFor('all committed records', async () => {
        const seen: LogRecord[] = [];
        const result = await log.readPartition(topic, 0, 0, (chunk) => void seen.push(...chunk));
        return seen.length === 6 ? { seen, result } : undefined;
      });
      assert.equal(result.nextOffset, result.endOffset, 'the read reached the read_committed end');
      assert.equal(result.nextOffset, await log.endOffset(topic, 0));
      if (log.kind === 'kafka') assert.ok(result.nextOffset > seen.at(-1)!.offset + 1, 'markers follow the last record');
      const again = await log.readPartition(topic, 0, result.nextOffset, () => assert.fail('nothing is left to read'));
      assert.equal(again.recordsRead, 0);
      await txp.close();
    });

    test('a record that cannot be decoded is dead-lettered with the reason and its source position, and the others go on', async () => {
      const [input, dlq] = [uniqueName('commands'), uniqueName('dlq')];
      await log.admin.createTopics([spec(input, 2), spec(dlq, 1)]);
      const good = (n: number) => Buffer.from(JSON.stringify({ n }));
      await (await log.producer()).send([
        { topic: input, partition: 1, key: 'a', value: good(1) },
        { topic: input, partition: 1, key: 'b', value: Buffer.from([0xc3, 0x01, 0xff]) },
        { topic: input, partition: 1, key: 'c', value: good(2) },
      ]);
      const records = await readAll(log, input, 1);
      const decode = (r: LogRecord) => {
        const parsed = JSON.parse(r.value!.toString('utf8')) as { n: number };
        return parsed.n;
      };
      const { decoded, deadLetters } = await decodeOrDeadLetter(records, decode, dlq);
      assert.deepEqual(decoded.map((d) => d.value), [1, 2]);
      await (await log.producer()).send(deadLetters);
      const [dead] = await readAll(log, dlq, 0);
      assert.ok(dead);
      assert.equal(dead.key?.toString(), 'b');
      assert.deepEqual(dead.value, Buffer.from([0xc3, 0x01, 0xff]));
      assert.equal(dead.headers[DeadLetterHeaders.sourceTopic]?.toString(), input);
      assert.equal(dead.headers[DeadLetterHeaders.sourcePartition]?.toString(), '1');
      assert.equal(dead.headers[DeadLetterHeaders.sourceOffset]?.toString(), '1');
      assert.match(dead.headers[DeadLetterHeaders.reason]!.toString(), /JSON/);
    });

    test('a 2 MB payload passes produce and consume; a record over the limit is refused before sending, naming the limit', async () => {
      const topic = uniqueName('big');
      await log.admin.createTopics([spec(topic, 1)]);
      const payload = Buffer.alloc(MAX_PAYLOAD_BYTES, 7);
      const producer = await log.producer();
      await producer.send([{ topic, partition: 0, key: 'big', value: payload, headers: { envelope: 'x'.repeat(1024) } }]);
      const [record] = await readAll(log, topic, 0);
      assert.equal(record?.value?.length, MAX_PAYLOAD_BYTES);
      assert.ok(record.value.equals(payload));
      const tooBig = Buffer.alloc(log.maxRecordBytes + 1);
      await assert.rejects(producer.send([{ topic, partition: 0, key: null, value: tooBig }]), (error: unknown) => {
        assert.ok(error instanceof RecordTooLargeError);
        assert.match(error.message, new RegExp(`limit of ${log.maxRecordBytes} bytes`));
        return true;
      });
      const tx = await (await log.transactionalProducer(uniqueName('tx'))).begin();
      await assert.rejects(tx.send([{ topic, partition: 0, key: null, value: tooBig }]), RecordTooLargeError);
      await tx.abort();
      assert.equal((await readAll(log, topic, 0)).length, 1, 'nothing of the refused records was written');
    });
  });

  describe('co-partitioned groups', () => {
    test('a stopped member\'s take waits out its wait and returns nothing, so a reader that keeps taking after a close does not spin', async () => {
      const topic = uniqueName('stopped');
      await log.admin.createTopics([spec(topic, 1)]);
      const member = log.groupConsumer({ groupId: uniqueName('readers'), topics: [topic], endpoint: 'r1' });
      await member.start({ onRevoked: () => undefined, onAssigned: () => undefined });
      await waitFor('an assignment', () => member.assignment().length === 1);
      await member.stop();
      let takes = 0;
      const until = Date.now() + 600;
      while (Date.now() < until) {
        assert.deepEqual(await member.take(0, { maxRecords: 10, maxBytes: 1 << 20, waitMs: 200 }), []);
        takes++;
      }
      assert.ok(takes <= 5, `${takes} takes in 600 ms: each should have waited its 200 ms`);
    });

    test('positions a member commits are what the next member of the group reads back', async () => {
      const topic = uniqueName('tasks');
      await log.admin.createTopics([spec(topic, 2)]);
      const groupId = uniqueName('workers');
      const first = log.groupConsumer({ groupId, topics: [topic], endpoint: 'w1' });
      await first.start({ onRevoked: () => undefined, onAssigned: () => undefined });
      await waitFor('an assignment', () => first.assignment().length === 2);
      assert.deepEqual(await first.committedPositions(1), { [topic]: 0 });
      await first.commitPositions(1, { [topic]: 7 });
      await first.stop();
      const next = (await backend.openAnother(log)).groupConsumer({ groupId, topics: [topic], endpoint: 'w2' });
      await next.start({ onRevoked: () => undefined, onAssigned: () => undefined });
      await waitFor('an assignment', () => next.assignment().length === 2);
      assert.deepEqual(await next.committedPositions(1), { [topic]: 7 });
      assert.deepEqual(await next.committedPositions(0), { [topic]: 0 });
      await next.stop();
    });

    test('members hold the same partitions of every input, a joining member moves only what it takes, and endpoints are visible', async () => {
      const [a, b] = [uniqueName('commands'), uniqueName('internal')];
      await log.admin.createTopics([spec(a, 8), spec(b, 8)]);
      const groupId = uniqueName('history');
      const received = new Map<string, Set<string>>();
      const member = async (endpoint: string) => {
        const consumer = (await backend.openAnother(log)).groupConsumer({ groupId, topics: [a, b], endpoint });
        received.set(endpoint, new Set());
        await consumer.start({
          onRevoked: () => undefined,
          onAssigned: (partitions) => partitions.forEach((p) => consumer.seek(p, { [a]: 0, [b]: 0 })),
        });
        return consumer;
      };
      const stable = (consumers: GroupConsumer[]) => () => {
        const all = consumers.flatMap((c) => c.assignment()).sort((x, y) => x - y);
        return all.length === 8 && new Set(all).size === 8 && consumers.every((c) => c.assignment().length >= 2);
      };
      const first = await member('http://node-a');
      const second = await member('http://node-b');
      await waitFor('two members to share 8 shards', stable([first, second]), 60_000);
      const before = { a: [...first.assignment()], b: [...second.assignment()] };
      await (await log.producer()).send(
        [0, 1, 2, 3, 4, 5, 6, 7].flatMap((p) => [a, b].map((topic) => ({ topic, partition: p, key: null, value: Buffer.from(`${topic}:${p}`) }))),
      );
      for (const [consumer, endpoint] of [[first, 'http://node-a'], [second, 'http://node-b']] as const) {
        for (const p of consumer.assignment()) {
          for (const r of await takeExactly(consumer, p, 2)) received.get(endpoint)!.add(`${r.topic}:${r.partition}`);
        }
      }
      for (const [consumer, endpoint] of [[first, 'http://node-a'], [second, 'http://node-b']] as const) {
        const expected = consumer.assignment().flatMap((p) => [`${a}:${p}`, `${b}:${p}`]).sort();
        assert.deepEqual([...received.get(endpoint)!].sort(), expected, `${endpoint} reads partition p of both inputs`);
      }
      const third = await member('http://node-c');
      await waitFor('three members to share 8 shards', stable([first, second, third]), 60_000);
      for (const p of first.assignment()) assert.ok(before.a.includes(p), `node-a gained shard ${p}`);
      for (const p of second.assignment()) assert.ok(before.b.includes(p), `node-b gained shard ${p}`);
      const members = await waitFor('member metadata of three members', async () => {
        const seen = await second.members();
        return seen.length === 3 && seen.every((m) => m.partitions.length > 0) ? seen : undefined;
      });
      const endpoints = new Map(members.map((m) => [m.endpoint, [...m.partitions]]));
      assert.deepEqual([...endpoints.keys()].sort(), ['http://node-a', 'http://node-b', 'http://node-c']);
      assert.deepEqual(endpoints.get('http://node-c'), [...third.assignment()]);
      for (const c of [first, second, third]) await c.stop();
    });
  });
}
