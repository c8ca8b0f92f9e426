import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ShardStore } from '../../state-stores/shard-store.js';
import { ShardTimers } from './shard-timers.js';
import { Keyspace, timerStoreKey, type TimerEntry } from './store-layout.js';
import { TimerKind } from '../history/timer-ref.js';

/** A timer index in memory that counts its scans, standing in for the store's one keyspace ShardTimers reads. */
function timerIndex(entries: TimerEntry[]) {
  const rows = new Map(entries.map((e) => [timerStoreKey(e.workflowKey, e.timer), Buffer.from(JSON.stringify(e))]));
  const index = {
    scans: 0,
    /** Entries read over every scan. */
    read: 0,
    rows,
    add(e: TimerEntry): string {
      const key = timerStoreKey(e.workflowKey, e.timer);
      rows.set(key, Buffer.from(JSON.stringify(e)));
      return key;
    },
    async *entries(keyspace: string, bounds: { lt?: string; limit?: number } = {}): AsyncIterable<[string, Buffer]> {
      assert.equal(keyspace, Keyspace.timers);
      index.scans++;
      let taken = 0;
      for (const key of [...rows.keys()].sort()) {
        if (bounds.lt !== undefined && key >= bounds.lt) break;
        if (bounds.limit !== undefined && taken++ >= bounds.limit) break;
        index.read++;
        yield [key, rows.get(key)!];
      }
    },
  };
  return index;
}

const entry = (workflowKey: string, fireTime: number): TimerEntry => ({ workflowKey, timer: { kind: TimerKind.UserTimer, identity: workflowKey, fireTime } });
const noChange = { states: new Map(), idleTimers: [], timersFired: 0, timerKeysAdded: [] };

test('one scan serves the wait for input and the due lookup while no commit changes states', async () => {
  const index = timerIndex([entry('a', 1_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.equal(await timers.msUntilNext(store, 400, 5_000), 600);
  assert.deepEqual(await timers.due(store, 400, 10), []);
  timers.remember(noChange);
  assert.equal(await timers.msUntilNext(store, 500, 5_000), 500);
  assert.equal(index.scans, 1);
  assert.deepEqual(await timers.due(store, 1_000, 10), [entry('a', 1_000)]);
  assert.equal(index.scans, 2);
});

test('a commit that adds a sooner timer brings the wait forward to it, and the due lookup finds it', async () => {
  const index = timerIndex([entry('a', 1_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 1_000);
  const sooner = entry('b', 100);
  timers.remember({ ...noChange, states: new Map([['b', {}]]), timerKeysAdded: [index.add(sooner)] });
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 100);
  assert.deepEqual(await timers.due(store, 100, 10), [sooner]);
});

test('an entry that fired without effect is skipped until its workflow changes, the wait looks past it, and the change brings the wait back to it', async () => {
  const idle = entry('a', 100);
  const index = timerIndex([idle, entry('b', 2_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.deepEqual(await timers.due(store, 150, 10), [idle]);
  timers.remember({ ...noChange, idleTimers: [idle], timersFired: 1 });
  assert.equal(await timers.msUntilNext(store, 150, 5_000), 1_850);
  assert.deepEqual(await timers.due(store, 150, 10), []);
  // The state changed, the entry's key did not (the store adds nothing), yet the entry is due again.
  timers.remember({ ...noChange, states: new Map([['a', {}]]) });
  assert.equal(await timers.msUntilNext(store, 150, 5_000), 0);
  assert.deepEqual(await timers.due(store, 150, 10), [idle]);
});

test('an empty index waits the whole idle wait, and clear() forgets what was read', async () => {
  const index = timerIndex([]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 5_000);
  const later = entry('c', 50);
  index.rows.set(timerStoreKey(later.workflowKey, later.timer), Buffer.from(JSON.stringify(later)));
  timers.clear();
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 50);
});

test('commits that only remove deadlines or add later ones read nothing: the wait counts down to the earliest deadline known', async () => {
  const index = timerIndex([entry('a', 1_000), entry('b', 3_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 1_000);
  // Workflow a's activity completed: its deadline went, and a later one came.
  index.rows.delete(timerStoreKey('a', entry('a', 1_000).timer));
  timers.remember({ ...noChange, states: new Map([['a', {}]]), timerKeysAdded: [index.add(entry('a', 9_000))] });
  assert.equal(await timers.msUntilNext(store, 100, 5_000), 900, 'the removed deadline may still be the bound: early, never late');
  assert.deepEqual(await timers.due(store, 100, 10), []);
  assert.equal(index.scans, 1);
  // At the stale bound one scan finds nothing due and learns the real next deadline.
  assert.deepEqual(await timers.due(store, 1_000, 10), []);
  assert.equal(await timers.msUntilNext(store, 1_000, 5_000), 2_000);
  assert.equal(index.scans, 2);
});

test('a due lookup reads the due entries and one more, not the whole index', async () => {
  const index = timerIndex([entry('a', 100), entry('b', 200), ...Array.from({ length: 50 }, (_, i) => entry(`later${i}`, 10_000 + i))]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.deepEqual(await timers.due(store, 250, 10), [entry('a', 100), entry('b', 200)]);
  assert.equal(index.read, 3);
  assert.deepEqual(await timers.due(store, 250, 1), [entry('a', 100)], 'no more than the limit');
});

test('after timers fire the next lookup reads the index again: an entry that fired stays due until its commit removes it', async () => {
  const index = timerIndex([entry('a', 100), entry('b', 5_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.deepEqual(await timers.due(store, 100, 10), [entry('a', 100)]);
  assert.equal(await timers.msUntilNext(store, 100, 5_000), 0, 'not yet committed: still due');
  index.rows.delete(timerStoreKey('a', entry('a', 100).timer));
  timers.remember({ ...noChange, states: new Map([['a', {}]]), timersFired: 1 });
  assert.equal(await timers.msUntilNext(store, 100, 5_000), 4_900);
});
