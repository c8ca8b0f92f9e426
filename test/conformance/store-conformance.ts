import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log, OutgoingRecord, TopicSpec } from '../../topics/log/log.js';
import { ShardStore, type ChangelogBinding, type ChangelogRecord } from '../../state-stores/shard-store.js';
import { type TestBackend, uniqueName } from '../support/test-env.js';

/**
 * State store conformance: a store rebuilt from its changelogs equals the store the processor
 * wrote, key by key, on both backends.
 */

const SHARD = 1;
const compacted = (name: string): TopicSpec => ({ name, partitions: 2, replicationFactor: 1, config: { 'cleanup.policy': 'compact' } });

/** A snapshot value with pending timers, from which the timer index is derived. */
const snapshot = (key: string, version: number, timers: number[]) => Buffer.from(JSON.stringify({ key, version, timers }));
const bindings = (state: string, history: string): ChangelogBinding[] => [
  {
    topic: state,
    keyspace: 'm',
    derive: (key, value) =>
      (JSON.parse(value.toString()) as { timers: number[] }).timers.map((fireAt) => ({
        keyspace: 't',
        key: `${String(fireAt).padStart(13, '0')}/${key}`,
        value: Buffer.from(key),
      })),
  },
  { topic: history, keyspace: 'h' },
];

/** Every key and value of the store's keyspaces. */
async function contents(store: ShardStore): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for (const keyspace of ['m', 't', 'h']) {
    for await (const [key, value] of store.entries(keyspace)) all.set(`${keyspace}:${key}`, value.toString('hex'));
  }
  return all;
}

/** 10,000 keys, then 3,000 overwrites (timers moved) and 1,000 tombstones, plus history records. */
function changelog(state: string, history: string): ChangelogRecord[] {
  const records: ChangelogRecord[] = [];
  for (let i = 0; i < 10_000; i++) records.push({ topic: state, key: `ns/wf-${i}`, value: snapshot(`wf-${i}`, 1, [1_000_000 + i]) });
  for (let i = 0; i < 3_000; i++) records.push({ topic: state, key: `ns/wf-${i * 3}`, value: snapshot(`wf-${i * 3}`, 2, [2_000_000 + i, 3_000_000 + i]) });
  for (let i = 0; i < 1_000; i++) records.push({ topic: state, key: `ns/wf-${i * 7 + 1}`, value: null });
  for (let i = 0; i < 2_000; i++) records.push({ topic: history, key: `ns/wf-${i}/run/${i % 5}`, value: Buffer.from(`event-${i}`) });
  return records;
}

/** Registers the store tests for one backend. */
export function storeConformance(makeBackend: () => Promise<TestBackend> | TestBackend): void {
  let backend: TestBackend;
  let log: Log;
  const directories: string[] = [];
  const directory = async () => {
    const d = await mkdtemp(join(tmpdir(), 'logbook-store-'));
    directories.push(d);
    return d;
  };
  before(async () => {
    backend = await makeBackend();
    log = await backend.open();
  });
  after(async () => {
    await backend.cleanup();
    for (const d of directories) await rm(d, { recursive: true, force: true });
  });

  test('a store deleted from disk and restored from its changelogs equals the store before, key by key, up to its read_committed end', async () => {
    const [state, history] = [uniqueName('state'), uniqueName('history')];
    await log.admin.createTopics([compacted(state), compacted(history)]);
    const id = uniqueName('history-shard');
    const producer = await log.transactionalProducer(id);
    const live = await ShardStore.open({ directory: await directory(), shard: SHARD, bindings: bindings(state, history) });
    const records = changelog(state, history);
    for (let i = 0; i < records.length; i += 1_000) {
      const batch = records.slice(i, i + 1_000);
      const tx = await producer.begin();
      await tx.send(batch.map((r): OutgoingRecord => ({ topic: r.topic, partition: SHARD, key: r.key, value: r.value })));
      await tx.commit();
      // As the processor does: the local store is written only after the commit.
      await live.apply(batch);
    }
    const expected = await contents(live);
    assert.equal([...expected.keys()].filter((k) => k.startsWith('m:')).length, 9_000);
    await live.destroy();

    // A new owner fences first; that also waits for the last commit's markers.
    await (await log.transactionalProducer(id)).close();
    const restored = await ShardStore.open({ directory: await directory(), shard: SHARD, bindings: bindings(state, history) });
    assert.equal(restored.phase, 'REGISTERED');
    const { recordsApplied } = await restored.restore(log);
    assert.equal(restored.phase, 'COMPLETED');
    assert.equal(recordsApplied, records.length);
    const actual = await contents(restored);
    assert.equal(actual.size, expected.size);
    for (const [key, value] of expected) assert.equal(actual.get(key), value, key);
    for (const topic of [state, history]) {
      assert.equal((await restored.checkpoint(topic)).nextOffset, await log.endOffset(topic, SHARD), `${topic} checkpoint is at its end`);
    }

    // Replaying from an older checkpoint is safe: re-apply part of the log, restore again from 0.
    const replayed = await ShardStore.open({ directory: await directory(), shard: SHARD, bindings: bindings(state, history) });
    await replayed.apply(records.slice(0, 5_000));
    await replayed.restore(log);
    assert.deepEqual(await contents(replayed), expected);
    await replayed.close();
    await restored.close();
    await producer.close().catch(() => undefined);
  });
}
