import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { workflowKey } from '../../topics/catalog.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { workflowTaskCodec } from '../../topics/serde/index.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import { NoPollersError, QueryFailedError, QueryTimeoutError } from '../../sdk/client/query-sender.js';
import { queryWorkersGroupId } from '../../topics/catalog.js';
import { gatewayRunLocator } from '../../sdk/client/query-target.js';
import { WorkflowClient, WorkflowClientError, type WorkflowHandle } from '../../sdk/client/workflow-client.js';
import { Worker, type WorkerOptions } from '../../sdk/worker/worker.js';
import type { HistoryFetcher } from '../../sdk/worker/workflow-worker.js';
import { itemQuery, statusQuery, type BasketResult } from '../workflows/queries.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Queries end to end on one backend: workflow code, workers, the SDK clients and the HTTP API. */

const QUERY_WORKFLOWS = fileURLToPath(new URL('../workflows/queries.ts', import.meta.url));
type QuerySource = 'cache' | 'replay';

/** Registers the query tests for one backend. */
export function queryConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let http: WorkflowClient;
  let address: string;
  before(async () => {
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    http = new WorkflowClient({ address, queryTimeout: '5s' });
  });
  after(async () => {
    server.close();
    await t.stop();
  });

  /** A worker for `queue` running the query workflows; records where each answer came from. */
  async function basketWorker(queue: string, options: Partial<WorkerOptions> = {}): Promise<{ worker: Worker; sources: QuerySource[] }> {
    const sources: QuerySource[] = [];
    const worker = new Worker(t.engine.workerConnection(), {
      taskQueue: queue,
      workflowsPath: QUERY_WORKFLOWS,
      history: engineHistoryFetcher(t.engine),
      onQuery: (event) => sources.push(event.source),
      ...options,
    });
    await worker.start();
    return { worker, sources };
  }

  const historyTypes = async (handle: WorkflowHandle) => (await handle.fetchHistory()).map((e) => e.attributes.type);
  const idle = (handle: WorkflowHandle) =>
    waitFor('the run to have no workflow task in flight', async () => ((await handle.describe()) as { pendingWorkflowTask: unknown }).pendingWorkflowTask === null);

  test('a query returns the state of a run waiting for a signal, and a query right after a signal sees its effect', async () => {
    const queue = uniqueName('baskets');
    const { worker } = await basketWorker(queue);
    try {
      const id = uniqueName('basket');
      const handle = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['ann'] });
      assert.deepEqual(await handle.query(statusQuery), { stage: 'collecting', items: [] });
      await handle.signal('addItem', 'apple');
      // No waiting: the answer must include the signal even if its workflow task has not run yet.
      assert.deepEqual(await handle.query(statusQuery), { stage: 'collecting', items: ['apple'] });
      await handle.signal('addItem', 'pear');
      assert.equal(await t.engine.client.query(id, itemQuery.name, [1]), 'pear');
      assert.equal(await handle.query(itemQuery, 0), 'apple');
    } finally {
      await worker.stop(1_000);
    }
  });

  test('queries write nothing: the history is the same before and after queries, failed ones included', async () => {
    const queue = uniqueName('baskets');
    const { worker, sources } = await basketWorker(queue);
    try {
      const handle = await http.start('basket', { workflowId: uniqueName('basket'), taskQueue: queue, args: ['bo'] });
      await handle.signal('addItem', 'fig');
      await idle(handle);
      const before = await handle.fetchHistory();
      assert.deepEqual(await handle.query('status'), { stage: 'collecting', items: ['fig'] });
      for (const rule of ['sleepy', 'lucky', 'asyncCount', 'private']) {
        await assert.rejects(handle.query(rule), (e: unknown) => e instanceof WorkflowClientError && e.status === 400 && e.code === 'QueryFailed');
      }
      await assert.rejects(handle.query('nope'), (e: unknown) => e instanceof WorkflowClientError && e.code === 'UnknownQuery');
      assert.deepEqual(await handle.fetchHistory(), before);
      assert.deepEqual((await handle.describe() as { pendingWorkflowTask: unknown }).pendingWorkflowTask, null, 'no workflow task was scheduled by a query');
      // The worker held the run: every answer came from its cache.
      assert.deepEqual([...new Set(sources)], ['cache']);
      // The run goes on as if it had never been queried (the sleepy query's timer was never started).
      await handle.signal('checkout');
      const outcome = await handle.result<BasketResult>('30s');
      assert.deepEqual(outcome.result?.items, ['fig']);
      assert.ok(!(await historyTypes(handle)).includes('TimerStarted'));
    } finally {
      await worker.stop(1_000);
    }
  });

  test('a query to a completed run, or to an earlier run of the workflow, is answered by a worker that never held it, by replaying history', async () => {
    const queue = uniqueName('baskets');
    const id = uniqueName('basket');
    const first = await basketWorker(queue);
    let handle: WorkflowHandle;
    try {
      handle = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['cy'] });
      await handle.signal('addItem', 'kiwi');
      await handle.signal('checkout');
      assert.equal((await handle.result('30s')).status, 'Completed');
    } finally {
      await first.worker.stop(1_000);
    }
    const fresh = await basketWorker(queue);
    try {
      assert.deepEqual(await handle.query(statusQuery), { stage: 'checked out', items: ['kiwi'] });
      assert.deepEqual(fresh.sources, ['replay']);
      // A second run of the same workflow id: the first stays queryable by its run id.
      const second = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['cy'] });
      assert.notEqual(second.runId, handle.runId);
      assert.deepEqual(await t.engine.client.query(id, 'status', [], { runId: handle.runId! }), { stage: 'checked out', items: ['kiwi'] });
      assert.equal(fresh.sources[1], 'replay');
      assert.deepEqual(await http.getHandle(id).query(statusQuery), { stage: 'collecting', items: [] });
    } finally {
      await fresh.worker.stop(1_000);
    }
  });

  test('an unknown query name, a failing handler and an unknown workflow fail with clear errors on both clients', async () => {
    const queue = uniqueName('baskets');
    const { worker } = await basketWorker(queue);
    try {
      const id = uniqueName('basket');
      const handle = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['di'] });
      await assert.rejects(t.engine.client.query(id, 'stauts'), (e: unknown) => {
        assert.ok(e instanceof QueryFailedError);
        assert.equal(e.code, 'UnknownQuery');
        assert.match(e.message, /has no handler for query 'stauts'; known queries: asyncCount, forever, item, lucky, private, sleepy, status/);
        return true;
      });
      const unknown = await fetch(`${address}/api/v1/namespaces/default/workflows/${id}/query/stauts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"args":[]}' });
      assert.equal(unknown.status, 400);
      assert.match(((await unknown.json()) as { message: string }).message, /known queries: .*status/);
      await assert.rejects(handle.query('private'), (e: unknown) => e instanceof WorkflowClientError && e.status === 400 && /the basket of di is private/.test(e.message));
      await assert.rejects(http.getHandle(uniqueName('nobody')).query('status'), (e: unknown) => e instanceof WorkflowClientError && e.status === 404 && e.code === 'WorkflowNotFound');
      await assert.rejects(t.engine.client.query(uniqueName('nobody'), 'status'), (e: unknown) => (e as { code?: string }).code === 'WorkflowNotFound');
    } finally {
      await worker.stop(1_000);
    }
  });

  test('a client next to the log queries through the log, locating runs through a gateway; without a locator it refuses to query', async () => {
    const queue = uniqueName('baskets');
    const { worker } = await basketWorker(queue);
    const located = await connectLogClient(t.engine.log, t.engine.catalog, { locateRun: gatewayRunLocator(address) });
    const blind = await connectLogClient(t.engine.log, t.engine.catalog);
    try {
      const id = uniqueName('basket');
      const handle = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['gus'] });
      await handle.signal('addItem', 'lime');
      assert.deepEqual(await located.client.query(id, 'status'), { stage: 'collecting', items: ['lime'] });
      await assert.rejects(located.client.query(uniqueName('nobody'), 'status'), (e: unknown) => (e as { code?: string }).code === 'WorkflowNotFound');
      await assert.rejects(blind.client.query(id, 'status'), (e: unknown) => (e as { code?: string }).code === 'QUERY_NEEDS_RUN_LOCATOR');
    } finally {
      await located.close();
      await blind.close();
      await worker.stop(1_000);
    }
  });

  test('with no worker polling the task queue, a query fails at its deadline with NoPollers naming the queue (400 over HTTP)', async () => {
    const queue = uniqueName('unpolled');
    const id = uniqueName('basket');
    await http.start('basket', { workflowId: id, taskQueue: queue, args: ['ed'] });
    const started = Date.now();
    await assert.rejects(t.engine.client.query(id, 'status', [], { timeoutMs: 1_000 }), (e: unknown) => {
      assert.ok(e instanceof NoPollersError);
      assert.equal(e.message, `no worker polls task queue ${queue}, so nobody can answer query 'status' of workflow ${id}; start a worker of the queue`);
      return true;
    });
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 990 && elapsed < 2_500, `failed after ${elapsed} ms`);
    const response = await fetch(`${address}/api/v1/namespaces/default/workflows/${id}/query/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"timeout":"500ms"}' });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { code: string }).code, 'NoPollers');
  });

  test('a query that the queue\'s workers do not answer in time fails with the deadline error within its timeout', async () => {
    const queue = uniqueName('silent');
    const id = uniqueName('basket');
    await http.start('basket', { workflowId: id, taskQueue: queue, args: ['ed'] });
    // A member of the queue's query group that never answers: the query is asked and times out.
    const silent = t.engine.log.groupConsumer({ groupId: queryWorkersGroupId(t.engine.catalog, 'default', queue), topics: [t.engine.catalog.taskTopics('default', queue).query], endpoint: 'silent' });
    await silent.start({ onRevoked: () => undefined, onAssigned: () => undefined });
    try {
      await waitFor('the silent member to join', async () => (await t.engine.log.admin.groupMembers(queryWorkersGroupId(t.engine.catalog, 'default', queue))) > 0);
      const started = Date.now();
      await assert.rejects(t.engine.client.query(id, 'status', [], { timeoutMs: 1_000 }), (e: unknown) => {
        assert.ok(e instanceof QueryTimeoutError);
        assert.equal(e.message, `no worker answered query 'status' of workflow ${id} within 1000 ms; is a worker polling task queue ${queue}?`);
        return true;
      });
      const elapsed = Date.now() - started;
      // Node's timers and Date.now() round differently: a 1,000 ms deadline may end at 999 ms.
      assert.ok(elapsed >= 990 && elapsed < 2_500, `failed after ${elapsed} ms`);
    } finally {
      await silent.stop();
    }
  });

  test('a query is answered while every workflow task of the queue waits behind a stuck backlog', async () => {
    const queue = uniqueName('baskets');
    // The backlog: workflow tasks whose history fetch hangs until the end of the test. With one
    // task slot, every later workflow task of the queue waits behind them.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const real = engineHistoryFetcher(t.engine);
    const gated: HistoryFetcher = {
      fetch: async (run, until) => {
        if (run.workflowId.startsWith('stuck-')) await gate;
        return real.fetch(run, until);
      },
    };
    const { worker, sources } = await basketWorker(queue, { history: gated, maxConcurrentWorkflowTasks: 1 });
    try {
      const id = uniqueName('basket');
      const handle = await http.start('basket', { workflowId: id, taskQueue: queue, args: ['flo'] });
      await idle(handle);
      await fillBacklog(t, queue, 20);
      await handle.signal('addItem', 'plum');
      // The signal's workflow task is queued behind the backlog, and stays there; the query is
      // answered within the client's 5 s all the same.
      assert.deepEqual(await handle.query(statusQuery), { stage: 'collecting', items: ['plum'] });
      assert.notEqual((await handle.describe() as { pendingWorkflowTask: unknown }).pendingWorkflowTask, null, 'the signal task is still pending');
      assert.ok(!(await historyTypes(handle)).slice(-2).includes('WorkflowTaskCompleted'), 'the worker has not run the signal task');
      // The cached run had not seen the signal: the worker replayed the history to answer.
      assert.equal(sources.at(-1), 'replay');
    } finally {
      release();
      await worker.stop(1_000);
    }
  });
}

/** Writes `count` workflow tasks of runs that do not exist (so their history must be fetched) to the queue. */
async function fillBacklog(t: TestEngine, queue: string, count: number): Promise<void> {
  const { log, catalog, serde } = t.engine;
  const topic = catalog.taskTopics('default', queue).workflow;
  const producer = await log.producer();
  const records = [];
  for (let i = 0; i < count; i++) {
    const task: WorkflowTask = {
      namespace: 'default', workflowId: `stuck-${i}`, runId: `stuck-run-${i}`, workflowType: 'basket', taskQueue: queue,
      scheduledEventId: 5, attempt: 1, scheduledTime: Date.now(), startToCloseTimeoutMs: 10_000, events: [],
      lastEventId: 4, startedEventIdHint: 6, messages: [], queries: [], historySizeBytes: 0, suggestContinueAsNew: false,
    };
    records.push({ topic, key: workflowKey('default', task.workflowId), value: await serde.encode(workflowTaskCodec, task, topic) });
  }
  await producer.send(records);
}
