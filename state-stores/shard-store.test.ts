import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShardStore } from './shard-store.js';

/** A store whose `s` changelog derives one `d` entry per name listed in the value. */
async function openDerivingStore(directory: string): Promise<ShardStore> {
  return ShardStore.open({
    directory,
    shard: 0,
    bindings: [{
      topic: 's',
      keyspace: 's',
      derive: (key, value) => (JSON.parse(value.toString('utf8')) as string[]).map((name) => ({ keyspace: 'd', key: `${name}/${key}`, value: Buffer.from(name) })),
    }],
  });
}

const names = (...list: string[]) => Buffer.from(JSON.stringify(list));

async function derivedKeys(store: ShardStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const [key] of store.entries('d')) keys.push(key);
  return keys;
}

test('writing a key again keeps the derived entries it still derives, removes the ones it no longer does, and reports only the new ones', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-shard-store-'));
  const store = await openDerivingStore(directory);
  try {
    assert.deepEqual(await store.apply([{ topic: 's', key: 'k', value: names('a', 'b') }]), new Map([['d', ['a/k', 'b/k']]]));
    assert.deepEqual(await store.apply([{ topic: 's', key: 'k', value: names('a', 'b') }]), new Map(), 'the same entries again: nothing new');
    assert.deepEqual(await store.apply([{ topic: 's', key: 'k', value: names('b', 'c') }]), new Map([['d', ['c/k']]]));
    assert.deepEqual(await derivedKeys(store), ['b/k', 'c/k']);
    // Within one batch the later record of a key decides its entries.
    await store.apply([
      { topic: 's', key: 'k', value: names('d') },
      { topic: 's', key: 'k', value: names('b') },
    ]);
    assert.deepEqual(await derivedKeys(store), ['b/k']);
    await store.apply([{ topic: 's', key: 'k', value: null }]);
    assert.deepEqual(await derivedKeys(store), []);
    assert.deepEqual(await store.apply([{ topic: 's', key: 'k', value: names('b') }]), new Map([['d', ['b/k']]]), 'after a tombstone the entries are new again');
  } finally {
    await store.destroy();
    await rm(directory, { recursive: true, force: true });
  }
});

test('a value that derives one entry twice still drops the entries it no longer derives, so a later write can bring them back', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-shard-store-'));
  const store = await openDerivingStore(directory);
  try {
    await store.apply([{ topic: 's', key: 'k', value: names('a', 'b') }]);
    await store.apply([{ topic: 's', key: 'k', value: names('a', 'a') }]);
    assert.deepEqual(await derivedKeys(store), ['a/k']);
    assert.deepEqual(await store.apply([{ topic: 's', key: 'k', value: names('a', 'b') }]), new Map([['d', ['b/k']]]));
    assert.deepEqual(await derivedKeys(store), ['a/k', 'b/k']);
  } finally {
    await store.destroy();
    await rm(directory, { recursive: true, force: true });
  }
});
