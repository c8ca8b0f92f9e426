import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { readHistories } from '../support/history-audit.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';

/** A deployment (prefix) on the test broker with a client in this process. */
async function deployment(shards = 2) {
  const prefix = uniqueName('proc').replaceAll('-', '_');
  const catalog = topicCatalog({ prefix, shards });
  const log = await openLog({ kind: 'kafka', brokers: kafkaBrokers() });
  const dirs: string[] = [];
  const env = (extra: Record<string, string>) => ({ LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ...extra });
  const dataDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'logbook-proc-'));
    dirs.push(d);
    return d;
  };
  return {
    catalog,
    log,
    env,
    dataDir,
    async close() {
      await log.close();
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    },
  };
}

async function describe(endpoint: string, workflowId: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(`${endpoint}/api/v1/namespaces/default/workflows/${workflowId}`);
  return response.ok ? ((await response.json()) as Record<string, unknown>) : undefined;
}

test('kill -9 of an activity worker mid-activity: the activity runs again on the other worker and exactly one completion is recorded', async () => {
  const d = await deployment();
  const engine = await startEngineProcess(d.env({ ENGINE_ROLE: 'engine', ENGINE_DATA: await d.dataDir() }));
  const workerEnv = d.env({ ENGINE_ROLE: 'workers', ENGINE_WORKER_GATEWAY: engine.endpoint, ENGINE_SLOW_ACTIVITY_MS: '4000' });
  const workers: EngineProcess[] = [await startEngineProcess(workerEnv), await startEngineProcess(workerEnv)];
  const { client, close } = await connectLogClient(d.log, d.catalog);
  try {
    const id = 'order-worker-crash';
    await client.start({ workflowId: id, workflowType: 'order', taskQueue: 'orders', args: [{ orderId: id, sku: 'book', quantity: 1, amountCents: 100, phone: '+1', packTimeout: '1h', ratingDelay: '10ms' }] });
    const claimedBy = await waitFor('a worker to claim reserveStock', async () => {
      const state = (await describe(engine.endpoint, id)) as { pendingActivities?: Array<{ startedIdentity: string | null }> } | undefined;
      return state?.pendingActivities?.[0]?.startedIdentity ?? undefined;
    }, 60_000);
    const victim = workers.find((w) => claimedBy.startsWith(`${w.pid}@`))!;
    assert.ok(victim, `the claim ${claimedBy} names one of the worker processes`);
    await victim.kill9();
    const survivor = workers.find((w) => w !== victim)!;
    const result = client.send(client.envelope('default', id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 120_000 });
    const signal = { type: 'SignalWorkflowExecution' as const, signalName: 'sellerPacked', input: [client.dataConverter.toPayload({ parcelId: 'p' })], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
    await client.send(client.envelope('default', id, signal, { awaitReply: false }));
    assert.equal((await result)?.executionStatus, 'Completed');
    const [events] = [...(await readHistories(d.log, d.catalog)).values()] as [HistoryEvent[]];
    const reserve = events.find((e) => e.attributes.type === 'ActivityTaskScheduled' && e.attributes.activityType === 'reserveStock')!;
    const completions = events.filter((e) => e.attributes.type === 'ActivityTaskCompleted' && e.attributes.scheduledEventId === reserve.eventId);
    assert.equal(completions.length, 1, 'exactly one completion of reserveStock');
    // The task came back to the survivor through the worker group's rebalance (same attempt); the
    // first claim stays the recorded start, the completion names who finished it.
    const completion = completions[0]!;
    assert.ok(completion.attributes.type === 'ActivityTaskCompleted' && completion.attributes.identity.startsWith(`${survivor.pid}@`), 'the surviving worker completed it');
  } finally {
    await close();
    for (const w of workers) await w.stop();
    await engine.stop();
    await d.close();
  }
});

test('a 5 s timer due while the engine is down fires once, late, after the restart', async () => {
  const d = await deployment();
  const first = await startEngineProcess(d.env({ ENGINE_ROLE: 'both', ENGINE_DATA: await d.dataDir() }));
  const { client, close } = await connectLogClient(d.log, d.catalog);
  try {
    const id = 'sleeper-downtime';
    await client.start({ workflowId: id, workflowType: 'sleeper', taskQueue: 'timers', args: [5_000] });
    await waitFor('the timer to start', async () => JSON.stringify((await describe(first.endpoint, id)) ?? {}).includes('"pendingTimers":[{'), 30_000);
    await first.kill9();
    // Down past the fire time: the timer is due while no engine runs.
    await new Promise((r) => setTimeout(r, 7_000));
    const second = await startEngineProcess(d.env({ ENGINE_ROLE: 'both', ENGINE_DATA: await d.dataDir() }));
    try {
      const reply = await client.send(client.envelope('default', id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 60_000 });
      assert.equal(reply?.executionStatus, 'Completed');
      const [events] = [...(await readHistories(d.log, d.catalog)).values()] as [HistoryEvent[]];
      const started = events.find((e) => e.attributes.type === 'TimerStarted')!;
      const fired = events.filter((e) => e.attributes.type === 'TimerFired');
      assert.equal(fired.length, 1, 'fired once');
      const delay = fired[0]!.eventTime - started.eventTime;
      assert.ok(delay >= 7_000, `fired late, after the outage (${delay} ms after it started)`);
    } finally {
      await second.stop();
    }
  } finally {
    await close();
    await first.stop();
    await d.close();
  }
});

test('SIGTERM stops an engine process with its workers gracefully: it exits 0 by itself, before the grace-period kill', async () => {
  const d = await deployment();
  const node = await startEngineProcess(d.env({ ENGINE_ROLE: 'both', ENGINE_DATA: await d.dataDir() }));
  try {
    const began = Date.now();
    const end = await node.stop();
    // The process used to spin on takes of the stopped consumer and only died to the 20 s SIGKILL.
    assert.deepEqual(end, { code: 0, signal: null }, `ended ${JSON.stringify(end)} after ${Date.now() - began} ms:\n${node.output.join('')}`);
  } finally {
    await d.close();
  }
});
