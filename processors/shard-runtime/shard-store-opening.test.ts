import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { mutableStateSnapshotCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { ScenarioRunner } from '../history/scenario-kit.js';
import { openShardStore } from './shard-store-opening.js';
import { Keyspace } from './store-layout.js';

/** A serde that counts its decodes. */
class CountingSerde extends SingleObjectSerde {
  decodes = 0;
  override decode: SingleObjectSerde['decode'] = (codec, bytes) => {
    this.decodes++;
    return super.decode(codec, bytes);
  };
}

test('the owner\'s snapshot write indexes its timers from the state it holds, without decoding it; a restored record is decoded, to the same index', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-store-opening-'));
  const catalog = topicCatalog({ shards: 1 });
  const serde = new CountingSerde();
  const state = new ScenarioRunner().run([{ kind: 'start', conflict: 'Fail' }]).state as MutableStateSnapshot;
  const value = await serde.encode(mutableStateSnapshotCodec, state, catalog.state);
  const timerIndex = async (store: Awaited<ReturnType<typeof openShardStore>>) => {
    const keys: string[] = [];
    for await (const [key] of store.entries(Keyspace.timers)) keys.push(key);
    return keys;
  };
  const owner = await openShardStore({ dataDirectory: join(directory, 'owner'), shard: 0, catalog, serde, clock: Date.now });
  const restored = await openShardStore({ dataDirectory: join(directory, 'restored'), shard: 0, catalog, serde, clock: Date.now });
  try {
    await owner.apply([{ topic: catalog.state, key: 'default/wf', value, decoded: state }]);
    assert.equal(serde.decodes, 0);
    await restored.apply([{ topic: catalog.state, key: 'default/wf', value }]);
    assert.equal(serde.decodes, 1);
    const index = await timerIndex(owner);
    assert.ok(index.length > 0, 'a started workflow has deadlines (its first workflow task\'s)');
    assert.deepEqual(await timerIndex(restored), index);
  } finally {
    await owner.close();
    await restored.close();
    await rm(directory, { recursive: true, force: true });
  }
});
