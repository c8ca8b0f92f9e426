import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import { startEngineProcess } from '../support/engine-process.js';
import { assertHistoriesExact, readHistories } from '../support/history-audit.js';
import { kafkaBrokers, uniqueName } from '../support/test-env.js';

const COUNT = 200;

test(`kill -9 of the engine with ${COUNT} workflows in flight, local store deleted: after a restart every workflow completes exactly once`, async () => {
  const prefix = uniqueName('crash').replaceAll('-', '_');
  const shards = 4;
  const dataA = await mkdtemp(join(tmpdir(), 'logbook-crash-a-'));
  const dataB = await mkdtemp(join(tmpdir(), 'logbook-crash-b-'));
  const env = { LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ENGINE_ROLE: 'both' };
  const first = await startEngineProcess({ ...env, ENGINE_DATA: dataA });
  const catalog = topicCatalog({ prefix, shards });
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
  const { client, close } = await connectLogClient(log, catalog);
  try {
    const ids = Array.from({ length: COUNT }, (_, i) => `order-${i}`);
    await Promise.all(ids.map((id) => client.start({ workflowId: id, workflowType: 'order', taskQueue: 'orders', args: [{ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '2s' }] })));
    const results = ids.map((id) => client.send(client.envelope('default', id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 240_000 }));
    for (const id of ids) {
      const body = { type: 'SignalWorkflowExecution' as const, signalName: 'sellerPacked', input: [client.dataConverter.toPayload({ parcelId: id })], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
      await client.send(client.envelope('default', id, body, { awaitReply: false }));
    }
    await new Promise((r) => setTimeout(r, 1_500));
    await first.kill9();
    // The restarted node has no local state at all: everything comes back from the changelogs.
    await rm(dataA, { recursive: true, force: true });
    const second = await startEngineProcess({ ...env, ENGINE_DATA: dataB });
    try {
      const replies = await Promise.all(results);
      for (const reply of replies) assert.equal(reply?.executionStatus, 'Completed', reply?.failure?.message);
      const histories = await readHistories(log, catalog);
      assert.equal(histories.size, COUNT);
      assertHistoriesExact(histories);
      assert.match(second.output.join(''), /SHARD \d RUNNING/);
    } finally {
      await second.stop();
    }
  } finally {
    await close();
    await log.close();
    await rm(dataB, { recursive: true, force: true });
  }
});
