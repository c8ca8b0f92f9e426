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

/** Memo at start end to end on one backend: client and HTTP start, signal-with-start, describe, list, workflowInfo. */

const MEMO_WORKFLOWS = fileURLToPath(new URL('../workflows/memo.ts', import.meta.url));

/** Registers the memo tests for one backend. */
export function memoConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let address: string;
  let worker: Worker;
  const queue = uniqueName('memo');

  before(async () => {
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: MEMO_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  const listedRow = async (workflowId: string): Promise<WorkflowExecutionInfo | undefined> => {
    for await (const run of client.list({ query: `WorkflowId = '${workflowId}'` })) return run;
    return undefined;
  };

  test('a memo given at start is read by workflowInfo().memo, shown by describe and in list rows', async () => {
    const id = uniqueName('memo');
    const memo = { customer: 'c-17', priority: 3, tags: ['eu', 'gift'], address: { city: 'Lyon' } };
    const handle = await client.start('memoEcho', { workflowId: id, taskQueue: queue, args: [false], memo });
    const outcome = await handle.result<{ memo: unknown }>();
    assert.equal(outcome.status, 'Completed');
    assert.deepEqual(outcome.result, { memo });
    assert.deepEqual((await handle.describe()).memo, memo);
    const row = await waitFor('the run to be listed closed', async () => {
      const r = await listedRow(id);
      return r?.status === 'Completed' ? r : undefined;
    });
    assert.deepEqual(row.memo, memo);
  });

  test('signal-with-start over HTTP carries the memo to the new run; a run started without memo sees {}', async () => {
    const id = uniqueName('memo-sws');
    const response = await fetch(`${address}/api/v1/namespaces/default/workflows/${id}/signal-with-start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowType: 'memoEcho', taskQueue: queue, args: [true], signalName: 'release', signalArgs: ['go'], memo: { source: 'http' } }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual((await client.getHandle(id).result()).result, { memo: { source: 'http' }, note: 'go' });
    const plain = uniqueName('memo-none');
    await client.start('memoEcho', { workflowId: plain, taskQueue: queue, args: [false] });
    assert.deepEqual((await client.getHandle(plain).result()).result, { memo: {} });
  });

  test('a memo that is not an object is refused with 400', async () => {
    const refused = await client.start('memoEcho', { workflowId: uniqueName('memo-bad'), taskQueue: queue, args: [false], memo: ['x'] as unknown as Record<string, unknown> }).catch((e: unknown) => e);
    assert.ok(refused instanceof WorkflowClientError);
    assert.equal(refused.status, 400);
    assert.match(refused.message, /'memo' must be an object/);
  });
}
