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
    rows,
    async *entries(keyspace: string, bounds: { lt?: string; limit?: number } = {}): AsyncIterable<[string, Buffer]> {
      assert.equal(keyspace, Keyspace.timers);
      index.scans++;
      let taken = 0;
      for (const key of [...rows.keys()].sort()) {
        if (bounds.lt !== undefined && key >= bounds.lt) break;
        if (bounds.limit !== undefined && taken++ >= bounds.limit) break;
        yield [key, rows.get(key)!];
      }
    },
  };
  return index;
}

const entry = (workflowKey: string, fireTime: number): TimerEntry => ({ workflowKey, timer: { kind: TimerKind.UserTimer, identity: workflowKey, fireTime } });
const noChange = { states: new Map(), idleTimers: [] };

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

test('a commit that writes states makes the next lookup read the index again, and finds a sooner timer', async () => {
  const index = timerIndex([entry('a', 1_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 1_000);
  const sooner = entry('b', 100);
  index.rows.set(timerStoreKey(sooner.workflowKey, sooner.timer), Buffer.from(JSON.stringify(sooner)));
  timers.remember({ states: new Map([['b', {}]]), idleTimers: [] });
  assert.equal(await timers.msUntilNext(store, 0, 5_000), 100);
  assert.deepEqual(await timers.due(store, 100, 10), [sooner]);
});

test('an entry that fired without effect is skipped until its workflow changes, and the wait looks past it', async () => {
  const idle = entry('a', 100);
  const index = timerIndex([idle, entry('b', 2_000)]);
  const store = index as unknown as ShardStore;
  const timers = new ShardTimers();
  assert.deepEqual(await timers.due(store, 150, 10), [idle]);
  timers.remember({ states: new Map(), idleTimers: [idle] });
  assert.equal(await timers.msUntilNext(store, 150, 5_000), 1_850);
  assert.deepEqual(await timers.due(store, 150, 10), []);
  timers.remember({ states: new Map([['a', {}]]), idleTimers: [] });
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
