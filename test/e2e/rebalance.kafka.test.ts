import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import type { CommandClient } from '../../sdk/client/command-client.js';
import { startEngineProcess } from '../support/engine-process.js';
import { assertHistoriesExact, readHistories } from '../support/history-audit.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';

const shardsOf = async (endpoint: string) => ((await (await fetch(`${endpoint}/healthz`)).json()) as { shards: number[] }).shards;

/** Starts orders and returns promises of their results (signals sent right away). */
async function runOrders(client: CommandClient, ids: string[]) {
  await Promise.all(ids.map((id) => client.start({ workflowId: id, workflowType: 'order', taskQueue: 'orders', args: [{ orderId: id, sku: 'b', quantity: 1, amountCents: 1, phone: '+1', packTimeout: '1h', ratingDelay: '3s' }] })));
  const results = ids.map((id) => client.send(client.envelope('default', id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 180_000 }));
  for (const id of ids) {
    const signal = { type: 'SignalWorkflowExecution' as const, signalName: 'sellerPacked', input: [client.dataConverter.toPayload({ parcelId: id })], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
    await client.send(client.envelope('default', id, signal, { awaitReply: false }));
  }
  return results;
}

test('two engine processes share the shards; stopping one moves its shards to the other and back, and every workflow completes once', async () => {
  const prefix = uniqueName('rebalance').replaceAll('-', '_');
  const shards = 8;
  const catalog = topicCatalog({ prefix, shards });
  const dirs = [await mkdtemp(join(tmpdir(), 'logbook-rb-')), await mkdtemp(join(tmpdir(), 'logbook-rb-')), await mkdtemp(join(tmpdir(), 'logbook-rb-'))];
  const env = (data: string) => ({ LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ENGINE_ROLE: 'both', ENGINE_DATA: data });
  const a = await startEngineProcess(env(dirs[0]!));
  let b = await startEngineProcess(env(dirs[1]!));
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
  const { client, close } = await connectLogClient(log, catalog);
  try {
    await waitFor('both nodes to own shards', async () => (await shardsOf(a.endpoint)).length > 0 && (await shardsOf(b.endpoint)).length > 0, 60_000);
    const firstWave = await runOrders(client, Array.from({ length: 40 }, (_, i) => `wave1-${i}`));
    await new Promise((r) => setTimeout(r, 1_000));
    await b.stop();
    await waitFor('the remaining node to own all shards', async () => (await shardsOf(a.endpoint)).length === shards, 60_000);
    for (const reply of await Promise.all(firstWave)) assert.equal(reply?.executionStatus, 'Completed');

    b = await startEngineProcess(env(dirs[2]!));
    await waitFor('shards to move back to the restarted node', async () => (await shardsOf(b.endpoint)).length > 0, 60_000);
    const secondWave = await runOrders(client, Array.from({ length: 40 }, (_, i) => `wave2-${i}`));
    for (const reply of await Promise.all(secondWave)) assert.equal(reply?.executionStatus, 'Completed');
    const histories = await readHistories(log, catalog);
    assert.equal(histories.size, 80);
    assertHistoriesExact(histories);
  } finally {
    await close();
    await log.close();
    await b.stop();
    await a.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
});
