import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient, WorkflowClientError, type WorkflowExecutionInfo } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Visibility list and count end to end on one backend: search attributes at start and upserted, filters, paging, errors. */

const VISIBILITY_WORKFLOWS = fileURLToPath(new URL('../workflows/visibility.ts', import.meta.url));

/** Registers the visibility tests for one backend. */
export function visibilityConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let address: string;
  let worker: Worker;
  const queue = uniqueName('visibility');
  const ids = { o1: uniqueName('o1'), o2: uniqueName('o2'), o3: uniqueName('o3'), t1: uniqueName('t1'), t2: uniqueName('t2'), t3: uniqueName('t3') };
  let afterOrders = '';

  before(async () => {
    t = await startTestEngine(backend, { workers: false, shards: 4 });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: VISIBILITY_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    const tier = (value: string) => ({ CustomerTier: { type: 'Keyword', value }, Since: { type: 'Datetime', value: '2025-06-01T00:00:00Z' } });
    await client.start('visibleOrder', { workflowId: ids.o1, taskQueue: queue, args: [true], searchAttributes: tier('gold') });
    await client.start('visibleOrder', { workflowId: ids.o2, taskQueue: queue, args: [false], searchAttributes: tier('gold') });
    await client.start('visibleOrder', { workflowId: ids.o3, taskQueue: queue, args: [false], searchAttributes: tier('silver') });
    afterOrders = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await client.start('visibleTrip', { workflowId: ids.t1, taskQueue: queue, args: ['gold', true] });
    await client.start('visibleTrip', { workflowId: ids.t2, taskQueue: queue, args: ['silver', false] });
    await client.start('visibleTrip', { workflowId: ids.t3, taskQueue: queue, args: ['gold', false] });
    await waitFor('two runs to complete and every trip to tag itself', async () =>
      (await client.count(`TaskQueue = '${queue}' AND ExecutionStatus = 'Completed'`)) === 2 && (await client.count(`TaskQueue = '${queue}' AND Priority IS NOT NULL`)) === 3, 60_000);
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  const listed = async (filter: string, pageSize = 100): Promise<WorkflowExecutionInfo[]> => {
    const runs: WorkflowExecutionInfo[] = [];
    for await (const run of client.list({ query: `TaskQueue = '${queue}' AND (${filter})`, pageSize })) runs.push(run);
    return runs;
  };
  const names = async (filter: string): Promise<string[]> => {
    const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    return (await listed(filter)).map((r) => byId[r.workflowId] ?? r.workflowId).sort();
  };

  test('list filters by type, status, a keyword set at start or upserted by the workflow, a datetime, IN, OR and parentheses', async () => {
    assert.deepEqual(await names(`WorkflowType = 'visibleOrder' AND ExecutionStatus = 'Running' AND CustomerTier = 'gold'`), ['o2']);
    assert.deepEqual(await names(`CustomerTier = 'gold'`), ['o1', 'o2', 't1', 't3'], 'set at start (orders) and upserted (trips)');
    assert.deepEqual(await names(`StartTime > '${afterOrders}'`), ['t1', 't2', 't3']);
    assert.deepEqual(await names(`StartTime <= '${afterOrders}' AND Since < '2025-07-01T00:00:00Z'`), ['o1', 'o2', 'o3']);
    assert.deepEqual(await names(`ExecutionStatus IN ('Completed', 'Failed') OR CustomerTier IN ('silver')`), ['o1', 'o3', 't1', 't2']);
    assert.deepEqual(await names(`(WorkflowType = 'visibleTrip' OR CustomerTier = 'silver') AND ExecutionStatus = 'Running'`), ['o3', 't2', 't3']);
    assert.deepEqual(await names(`Priority < 2 AND CloseTime IS NULL`), ['t3']);
    const [t1] = await listed(`WorkflowId = '${ids.t1}'`);
    assert.equal(t1?.status, 'Completed');
    assert.deepEqual(t1?.searchAttributes.CustomerTier, { type: 'Keyword', value: 'gold' });
    assert.ok(t1?.closeTime && Date.parse(t1.closeTime) >= Date.parse(t1.startTime));
  });

  test('count agrees with list, and a blank filter counts every run', async () => {
    assert.equal(await client.count(`TaskQueue = '${queue}'`), 6);
    assert.equal(await client.count(`TaskQueue = '${queue}' AND CustomerTier = 'gold' AND ExecutionStatus = 'Running'`), 2);
    assert.ok((await client.count()) >= 6);
  });

  test('paging with a small page size returns every run exactly once, newest start first', async () => {
    const pages: number[] = [];
    const seen: WorkflowExecutionInfo[] = [];
    let token: string | null = null;
    do {
      const page: Awaited<ReturnType<WorkflowClient['listPage']>> = await client.listPage({ query: `TaskQueue = '${queue}'`, pageSize: 4, ...(token ? { nextPageToken: token } : {}) });
      pages.push(page.executions.length);
      seen.push(...page.executions);
      token = page.nextPageToken;
    } while (token);
    assert.deepEqual(pages, [4, 2]);
    assert.deepEqual(seen.map((r) => r.workflowId).sort(), Object.values(ids).sort());
    const starts = seen.map((r) => Date.parse(r.startTime));
    assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
    assert.deepEqual((await listed('WorkflowId != \'\'', 1)).map((r) => r.workflowId), seen.map((r) => r.workflowId), 'the iterator over pages of one gives the same order');
  });

  test('an invalid query, page size or page token gets 400 naming the problem', async () => {
    const refused = await client.count(`WorkflowType = 'visibleOrder' AN ExecutionStatus = 'Running'`).catch((e: unknown) => e);
    assert.ok(refused instanceof WorkflowClientError);
    assert.equal(refused.status, 400);
    assert.equal(refused.code, 'INVALID_QUERY');
    assert.equal(refused.message, "unexpected token 'AN' at column 31; expected AND, OR or end of query");
    const typed = await listed(`CustomerTier = 3`).catch((e: unknown) => e);
    assert.ok(typed instanceof WorkflowClientError && typed.code === 'INVALID_QUERY');
    assert.match(typed.message, /'CustomerTier' \(Keyword\) at column \d+ is compared with number 3/);
    const base = `${address}/api/v1/namespaces/default/workflows`;
    const badSize = await fetch(`${base}?pageSize=0`);
    assert.equal(badSize.status, 400);
    assert.deepEqual(await badSize.json(), { code: 'INVALID_ARGUMENT', message: "'pageSize' must be an integer from 1 to 1000" });
    const badToken = await fetch(`${base}?nextPageToken=abc`);
    assert.equal(badToken.status, 400);
    assert.equal(((await badToken.json()) as { code: string }).code, 'INVALID_QUERY');
    const badAttribute = await client.start('visibleOrder', { workflowId: uniqueName('bad'), taskQueue: queue, args: [true], searchAttributes: { Tier: { type: 'Keyword', value: 3 } } }).catch((e: unknown) => e);
    assert.ok(badAttribute instanceof WorkflowClientError && badAttribute.status === 400);
    assert.equal(badAttribute.message, "search attribute 'Tier' (Keyword) has value 3 that does not fit its type");
  });
}
