import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { NamespaceClient } from '../../sdk/client/namespace-client.js';
import { WorkflowClient, WorkflowClientError } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import { workflowKey } from '../../topics/catalog.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * Namespaces end to end on one backend: register, describe, update and list through the client;
 * per-namespace history limits; retention deleting a closed run's state, visibility row and
 * history; start and API rate limits (429 with retry-after); activity dispatch rates.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/namespaces.ts', import.meta.url));

/** The most starts a token bucket of `rate`/s and burst max(1, rate) allows in any window of `windowMs`. */
function maxInWindow(rate: number, windowMs: number): number {
  return Math.max(1, rate) + Math.floor((rate * windowMs) / 1000) + 1;
}

/** The largest number of `times` that fall in one window of `windowMs`. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Registers the namespace tests for one backend. */
export function namespacesConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let address: string;
  let namespaces: NamespaceClient;
  const workers: Worker[] = [];

  before(async () => {
    t = await startTestEngine(backend, { workers: false, engine: { namespaces: { pollMs: 100 } } });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    namespaces = new NamespaceClient({ address });
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop(1_000)));
    server.close();
    await t.stop();
  });

  const startWorker = async (namespace: string, taskQueue: string, options: { maxActivitiesPerSecond?: number; started?: number[] } = {}) => {
    const started = options.started ?? [];
    const worker = new Worker(t.engine.workerConnection(), {
      namespace,
      taskQueue,
      workflowsPath: WORKFLOWS,
      history: engineHistoryFetcher(t.engine),
      activities: { tick: async (i: number) => (started.push(Date.now()), i) },
      ...(options.maxActivitiesPerSecond === undefined ? {} : { maxActivitiesPerSecond: options.maxActivitiesPerSecond }),
    });
    workers.push(worker);
    await worker.start();
    return worker;
  };

  const post = (path: string, body: unknown) =>
    fetch(`${address}/api/v1/namespaces${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test('a namespace is registered, described, listed and updated; a second registration is 409, an unknown one 404', async () => {
    const name = uniqueName('billing');
    const registered = await namespaces.register(name, { description: 'invoices', ownerEmail: 'team@example.com', retention: '2d', startsPerSecond: 50 });
    assert.equal(registered.retention, '2d');
    assert.equal(registered.retentionMs, 2 * 86_400_000);
    const described = await namespaces.describe(name);
    assert.deepEqual([described.description, described.ownerEmail, described.state, described.startsPerSecond], ['invoices', 'team@example.com', 'Registered', 50]);
    assert.ok((await namespaces.list()).some((n) => n.name === name));
    assert.equal((await namespaces.describe('default')).retentionMs, 72 * 3_600_000);

    const again = await namespaces.register(name).catch((e: unknown) => e);
    assert.ok(again instanceof WorkflowClientError && again.status === 409 && again.code === 'NamespaceAlreadyExists');
    const updated = await namespaces.update(name, { retention: '1d', startsPerSecond: null, taskQueueActivitiesPerSecond: { payments: 5 }, historyLimits: { maxSignalsPerRun: 7 } });
    assert.deepEqual([updated.retention, updated.startsPerSecond, updated.taskQueueActivitiesPerSecond, updated.historyLimits.maxSignalsPerRun, updated.description], ['1d', null, { payments: 5 }, 7, 'invoices']);
    assert.equal((await namespaces.describe(name)).retention, '1d');

    const unknown = await namespaces.describe(uniqueName('nope')).catch((e: unknown) => e);
    assert.ok(unknown instanceof WorkflowClientError && unknown.status === 404 && unknown.code === 'NamespaceNotFound');
    const unknownUpdate = await namespaces.update(uniqueName('nope'), { description: 'x' }).catch((e: unknown) => e);
    assert.ok(unknownUpdate instanceof WorkflowClientError && unknownUpdate.status === 404);
  });

  test('invalid registrations and updates are refused with 400 naming the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'has.dot' }, /name 'has\.dot' may contain only letters, digits, '_' and '-'/],
      [{ name: uniqueName('bad'), retention: 'soon' }, /retention: invalid duration/],
      [{ name: uniqueName('bad'), retention: '10ms' }, /'retention' must be from 1s/],
      [{ name: uniqueName('bad'), startsPerSecond: -1 }, /'startsPerSecond' must be a positive number/],
      [{ name: uniqueName('bad'), historyLimits: { maxSignals: 3 } }, /unknown history limit 'maxSignals'/],
      [{ name: uniqueName('bad'), colour: 'blue' }, /unknown field\(s\) colour/],
    ];
    for (const [body, message] of cases) {
      const response = await post('', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      const error = (await response.json()) as { code: string; message: string };
      assert.equal(error.code, 'INVALID_ARGUMENT');
      assert.match(error.message, message);
    }
    const update = await fetch(`${address}/api/v1/namespaces/default`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'Gone' }) });
    assert.equal(update.status, 400);
  });

  test("a namespace's history limits apply to its runs: the signal past maxSignalsPerRun is refused", async () => {
    const name = uniqueName('limited');
    await namespaces.register(name, { historyLimits: { maxSignalsPerRun: 2 } });
    // No worker: signals are recorded whether or not the workflow runs.
    const client = new WorkflowClient({ address, namespace: name });
    const handle = await client.start('quick', { workflowId: uniqueName('signalled'), taskQueue: uniqueName('idle'), args: ['x'] });
    await handle.signal('s', 1);
    await handle.signal('s', 2);
    const third = await handle.signal('s', 3).catch((e: unknown) => e);
    assert.ok(third instanceof WorkflowClientError, 'the third signal is refused');
    assert.equal(third.code, 'LimitExceeded');
  });

  test("retention deletes a closed run's state, visibility row and history, and tombstones its history records", async () => {
    const name = uniqueName('shortlived');
    await namespaces.register(name, { retention: '1s' });
    const queue = uniqueName('retention');
    await startWorker(name, queue);
    const client = new WorkflowClient({ address, namespace: name });
    const workflowId = uniqueName('gone');
    const handle = await client.start('quick', { workflowId, taskQueue: queue, args: ['done'] });
    assert.equal((await handle.result()).status, 'Completed');
    const runId = handle.runId!;
    const eventCount = (await t.engine.history(name, workflowId, runId)).length;
    assert.ok(eventCount >= 5, `the run has its history (${eventCount} events)`);

    await waitFor('the run to be deleted', async () => (await t.engine.describe(name, workflowId)) === null, 30_000);
    const described = await handle.describe().catch((e: unknown) => e);
    assert.ok(described instanceof WorkflowClientError && described.status === 404);
    assert.equal(await t.engine.visibilityRow(name, workflowId, runId), undefined);
    assert.equal(await client.count(`WorkflowId = '${workflowId}'`), 0);
    assert.deepEqual(await t.engine.history(name, workflowId, runId), []);

    // On the history topic, the latest record of every event key is a tombstone.
    const shard = t.engine.catalog.shardOf(name, workflowId);
    const latest = new Map<string, Buffer | null>();
    const prefix = `${workflowKey(name, workflowId)}/${runId}/`;
    await t.engine.log.readPartition(t.engine.catalog.history, shard, 0, (records) => {
      for (const r of records) if (r.key?.toString().startsWith(prefix)) latest.set(r.key.toString(), r.value);
    });
    assert.equal(latest.size, eventCount);
    assert.ok([...latest.values()].every((v) => v === null), 'every event key ends with a tombstone');
  });

  test('retention deletes every run of a continue-as-new chain once its last run closed', async () => {
    const name = uniqueName('chains');
    await namespaces.register(name, { retention: '1s' });
    const queue = uniqueName('chain');
    await startWorker(name, queue);
    const client = new WorkflowClient({ address, namespace: name });
    const workflowId = uniqueName('chain');
    const handle = await client.start('chain', { workflowId, taskQueue: queue, args: [3] });
    assert.equal((await handle.result()).result, 1);
    const firstRunId = handle.runId!;
    assert.ok((await t.engine.history(name, workflowId, firstRunId)).length > 0);
    await waitFor('the chain to be deleted', async () => (await t.engine.describe(name, workflowId)) === null, 30_000);
    assert.deepEqual(await t.engine.history(name, workflowId, firstRunId), [], 'the first run of the chain is gone too');
    assert.equal(await client.count(`WorkflowId = '${workflowId}'`), 0, 'no run of the chain is listed');
  });

  test('starts over startsPerSecond and calls over apiCallsPerSecond get 429 RESOURCE_EXHAUSTED with retry-after', async () => {
    const name = uniqueName('throttled');
    // One token per 10 s: a second call inside that window is refused however slow the machine is.
    await namespaces.register(name, { startsPerSecond: 0.1 });
    const start = () => post(`/${name}/workflows`, { workflowId: uniqueName('rl'), workflowType: 'quick', taskQueue: uniqueName('idle'), args: ['x'] });
    assert.equal((await start()).status, 201);
    const refused = await start();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const body = (await refused.json()) as { code: string; message: string };
    assert.equal(body.code, 'RESOURCE_EXHAUSTED');
    assert.match(body.message, /startsPerSecond/);
    // Other calls are not starts: still served.
    assert.equal((await fetch(`${address}/api/v1/namespaces/${name}/workflow-count`)).status, 200);

    await namespaces.update(name, { apiCallsPerSecond: 0.1 });
    await waitFor('the API limit to apply', async () => (await fetch(`${address}/api/v1/namespaces/${name}/workflow-count`)).status === 429);
    const call = await fetch(`${address}/api/v1/namespaces/${name}/workflow-count`);
    assert.equal(call.status, 429);
    assert.match(((await call.json()) as { message: string }).message, /apiCallsPerSecond/);
  });

  test('maxActivitiesPerSecond holds a worker to its rate', async () => {
    const queue = uniqueName('paced');
    const started: number[] = [];
    await startWorker('default', queue, { maxActivitiesPerSecond: 4, started });
    const client = new WorkflowClient({ address });
    const handle = await client.start('fanOut', { workflowId: uniqueName('fan'), taskQueue: queue, args: [16] });
    assert.equal((await handle.result('120s')).result, 16);
    assert.equal(started.length, 16);
    assert.ok(busiestWindow(started, 1_000) <= maxInWindow(4, 1_000), `at most ${maxInWindow(4, 1_000)} starts in any second, saw ${busiestWindow(started, 1_000)}`);
    // 16 starts at 4/s with a burst of 4 take at least 3 s.
    assert.ok(Math.max(...started) - Math.min(...started) >= 2_900);
  });

  test("a namespace's taskQueueActivitiesPerSecond paces the queue's workers", async () => {
    const name = uniqueName('queued');
    const queue = uniqueName('paced');
    await namespaces.register(name, { taskQueueActivitiesPerSecond: { [queue]: 4 } });
    const started: number[] = [];
    await startWorker(name, queue, { started });
    const client = new WorkflowClient({ address, namespace: name });
    const handle = await client.start('fanOut', { workflowId: uniqueName('fan'), taskQueue: queue, args: [16] });
    assert.equal((await handle.result('120s')).result, 16);
    assert.ok(busiestWindow(started, 1_000) <= maxInWindow(4, 1_000), `at most ${maxInWindow(4, 1_000)} starts in any second, saw ${busiestWindow(started, 1_000)}`);
    assert.ok(Math.max(...started) - Math.min(...started) >= 2_900);
  });
}
