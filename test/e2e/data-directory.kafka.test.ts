import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirectoryMismatchError } from '../../processors/shard-runtime/store-identity.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';

const order = (id: string) => ({ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' });

async function completeOrder(t: TestEngine, id: string): Promise<void> {
  await t.start('order', 'orders', id, [order(id)]);
  await t.signal(id, 'sellerPacked', [{ parcelId: id }]);
  assert.equal((await t.result(id, 60_000)).executionStatus, 'Completed');
}

test('a data directory that holds the embedded engine\'s state is refused by an engine on Kafka, with a message that says what to do', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-datadir-'));
  const prefix = uniqueName('dd').replaceAll('-', '_');
  try {
    const embedded = await startTestEngine('embedded', { directory, shards: 2, prefix });
    await completeOrder(embedded, 'embedded-order');
    await embedded.stop();
    await assert.rejects(startTestEngine('kafka', { directory, shards: 2, prefix }), (error: unknown) => {
      assert.ok(error instanceof DataDirectoryMismatchError);
      assert.match(error.message, /holds the state of the embedded engine .* start it without --kafka to use that data, or give the Kafka engine a directory of its own \(--data DIR or LOGBOOK_DATA\)/);
      return true;
    });
    const again = await startTestEngine('embedded', { directory, shards: 2, prefix });
    assert.equal((await again.engine.describe('default', 'embedded-order'))?.executionInfo.status, 'Completed', 'the embedded data is untouched');
    await again.stop();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});

test('shard stores built from another Kafka deployment (another topic prefix) are wiped and restored, so the engine serves its own log at once', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-datadir-'));
  const progress: string[] = [];
  try {
    const first = await startTestEngine('kafka', { directory, shards: 2, prefix: uniqueName('dd_a').replaceAll('-', '_') });
    for (let i = 0; i < 5; i++) await completeOrder(first, `first-${i}`);
    await first.stop();
    const second = await startTestEngine('kafka', { directory, shards: 2, prefix: uniqueName('dd_b').replaceAll('-', '_'), engine: { onProgress: (line) => progress.push(line) } });
    try {
      assert.ok(progress.some((l) => /were built from another log; they were wiped/.test(l)), progress.join('\n'));
      await completeOrder(second, 'second-0');
      assert.equal(await second.engine.describe('default', 'first-0'), null, 'nothing of the other deployment is served');
    } finally {
      await second.stop();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
