import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RestoreProgress } from '../../state-stores/shard-store.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';

const HOUR_MS = 3_600_000;
const order = (id: string) => ({ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' });

async function completeOrders(t: TestEngine, ids: string[]): Promise<void> {
  await Promise.all(ids.map((id) => t.start('order', 'orders', id, [order(id)])));
  for (const id of ids) await t.signal(id, 'sellerPacked', [{ parcelId: id }]);
  for (const reply of await Promise.all(ids.map((id) => t.result(id, 60_000)))) assert.equal(reply.executionStatus, 'Completed');
}

/**
 * Checkpoints move after every commit (the post-commit step of a batch), so an engine that takes
 * its shards over again — a restart, more than 24 h after it last restored — reads only the tail
 * of the changelogs instead of wiping its stores and replaying them from offset 0.
 */
export function checkpointsConformance(backend: 'kafka' | 'embedded'): void {
  test('an engine restarted on its data directory 25 h after its last restore reads only the changelogs\' tail: its stores are not wiped', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'logbook-checkpoints-'));
    const prefix = uniqueName('cp').replaceAll('-', '_');
    let skew = 0;
    const clock = () => Date.now() + skew;
    const restores: Array<RestoreProgress & { shard: number }> = [];
    const engine = { clock, onRestoreProgress: (shard: number, p: RestoreProgress) => restores.push({ ...p, shard }) };
    try {
      const first = await startTestEngine(backend, { directory, prefix, shards: 2, engine });
      try {
        await completeOrders(first, Array.from({ length: 20 }, (_, i) => `cp-a-${i}`));
        // A day and more goes by while the engine runs; it goes on committing.
        skew = 25 * HOUR_MS;
        await completeOrders(first, Array.from({ length: 5 }, (_, i) => `cp-b-${i}`));
      } finally {
        await first.stop();
      }
      restores.length = 0;
      const second = await startTestEngine(backend, { directory, prefix, shards: 2, engine });
      try {
        const byTopic = new Map(restores.map((p) => [`${p.shard}/${p.topic}`, p]));
        const state = [...byTopic.values()].filter((p) => p.topic.endsWith('.state'));
        assert.equal(state.length, 2, 'both shards restored their state changelog');
        for (const p of state) assert.ok(p.fromOffset > 0, `shard ${p.shard} restored ${p.topic} from its checkpoint ${p.fromOffset}, not from 0`);
        const applied = Math.max(...restores.map((p) => p.recordsApplied));
        assert.ok(applied < 10, `only the tail was read (${applied} records applied)`);
        await completeOrders(second, ['cp-c-0']);
        assert.equal((await second.engine.describe('default', 'cp-a-0'))?.executionInfo.status, 'Completed', 'the earlier runs are still there');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
}
