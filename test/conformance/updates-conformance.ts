import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient, WorkflowClientError, WorkflowUpdateFailedError, type WorkflowHandle } from '../../sdk/client/workflow-client.js';
import { replayHistories } from '../../sdk/replay/index.js';
import { Worker } from '../../sdk/worker/worker.js';
import * as updateActivities from '../workflows/update-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Workflow updates end to end on one backend: the WorkflowClient, the gateway's HTTP routes, a worker, replay. */

const UPDATE_WORKFLOWS = fileURLToPath(new URL('../workflows/updates.ts', import.meta.url));

/** Registers the update tests for one backend. */
export function updatesConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let base: string;
  let worker: Worker;
  const queue = uniqueName('updates');

  before(async () => {
    t = await startTestEngine(backend, { workers: false, shards: backend === 'kafka' ? 8 : 4 });
    server = await serveGateway(t.engine);
    const address = addressOf(server);
    base = `${address}/api/v1/namespaces/default/workflows`;
    client = new WorkflowClient({ address });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: UPDATE_WORKFLOWS, activities: updateActivities, history: engineHistoryFetcher(t.engine) });
    await worker.start();
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  const startCart = (label: string): Promise<WorkflowHandle> => client.start('cart', { workflowId: uniqueName(label), taskQueue: queue });
  const historyTypes = async (handle: WorkflowHandle): Promise<string[]> => (await handle.fetchHistory()).map((e) => e.attributes.type);
  const closeAndResult = async (handle: WorkflowHandle): Promise<unknown> => {
    await handle.signal('close');
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'Completed');
    return outcome.result;
  };

  test('executeUpdate returns the handler result, records Accepted and Completed, and the run keeps the change', async () => {
    const handle = await startCart('execute');
    assert.equal(await handle.executeUpdate<number, [string]>('addItem', { args: ['book'] }), 1);
    assert.equal(await handle.executeUpdate<number, [string]>({ name: 'addItem' }, { args: ['pen'] }), 2);
    const types = await historyTypes(handle);
    assert.equal(types.filter((t) => t === 'WorkflowExecutionUpdateAccepted').length, 2);
    assert.equal(types.filter((t) => t === 'WorkflowExecutionUpdateCompleted').length, 2);
    assert.deepEqual(await closeAndResult(handle), ['book', 'pen']);
  });

  test('a validator rejection fails the call with the validator message and leaves no event in history', async () => {
    const handle = await startCart('reject');
    await handle.executeUpdate('addItem', { args: ['book'] });
    const before = await historyTypes(handle);
    const error = await handle.executeUpdate('addItem', { args: [''] }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowUpdateFailedError, String(error));
    assert.equal(error.cause.code, 'UpdateRejected');
    assert.match(error.message, /an item needs a name/);
    assert.deepEqual(await historyTypes(handle), before, 'a rejected update writes nothing, not even a workflow task');
    assert.equal(await handle.executeUpdate('addItem', { args: ['pen'] }), 2, 'the run goes on after a rejection');
    assert.deepEqual(await closeAndResult(handle), ['book', 'pen']);
  });

  test('a handler failure fails the call with the handler ApplicationFailure and is recorded as the update outcome', async () => {
    const handle = await startCart('handler-failure');
    const error = await handle.executeUpdate('addItem', { args: ['out-of-stock'] }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowUpdateFailedError, String(error));
    assert.equal(error.cause.code, 'OutOfStock');
    assert.match(error.message, /no out-of-stock left/);
    const completed = (await handle.fetchHistory()).find((e) => e.attributes.type === 'WorkflowExecutionUpdateCompleted');
    assert.ok(completed && completed.attributes['failure'] !== null, 'the failure is the recorded outcome');
    assert.deepEqual(await closeAndResult(handle), []);
  });

  test('an update handler runs an activity and answers with its result; the run replays from its history', async () => {
    const handle = await startCart('activity');
    await handle.executeUpdate('addItem', { args: ['book'] });
    await handle.executeUpdate('addItem', { args: ['pen'] });
    assert.equal(await handle.executeUpdate('checkout', { args: ['HALF'] }), 10);
    assert.ok((await historyTypes(handle)).includes('ActivityTaskCompleted'));
    await closeAndResult(handle);
    const history = await t.engine.history('default', handle.workflowId, (await handle.describe() as { executionInfo: { runId: string } }).executionInfo.runId);
    const [replayed] = await replayHistories({ workflowsPath: UPDATE_WORKFLOWS }, [history]);
    assert.equal(replayed?.ok, true, JSON.stringify(replayed?.error));
  });

  test('startUpdate returns at acceptance; its handle, getUpdateHandle and a repeated update id give the same outcome', async () => {
    const handle = await startCart('stages');
    const updateHandle = await handle.startUpdate('checkout', { args: ['NONE'], updateId: 'checkout-1', waitForStage: 'ACCEPTED' });
    assert.equal(updateHandle.updateId, 'checkout-1');
    assert.equal(await updateHandle.result(), 0);
    assert.equal(await handle.getUpdateHandle('checkout-1').result(), 0);
    const events = (await historyTypes(handle)).length;
    assert.equal(await handle.executeUpdate('checkout', { args: ['HALF'], updateId: 'checkout-1' }), 0, 'deduplicated by update id');
    assert.equal((await historyTypes(handle)).length, events, 'a repeated update id writes nothing');
    const big = 'x'.repeat(20_000);
    assert.equal(await handle.executeUpdate('echo', { args: [big], updateId: 'echo-1' }), big);
    assert.equal(await handle.executeUpdate('echo', { args: ['other'], updateId: 'echo-1' }), big, 'a large outcome, not kept in the run state, is read back from history');
    await closeAndResult(handle);
    const late = await handle.executeUpdate('addItem', { args: ['late'] }).catch((e: unknown) => e);
    assert.ok(late instanceof WorkflowClientError && late.status === 409 && late.code === 'WorkflowClosed', String(late));
    assert.match(late.message, /workflow execution already completed/);
  });

  test('executeUpdateWithStart starts the workflow with the update, then reuses the open run', async () => {
    const workflowId = uniqueName('uws');
    assert.equal(await client.executeUpdateWithStart('addItem', { workflowId, workflowType: 'cart', taskQueue: queue, updateArgs: ['book'] }), 1);
    assert.equal(await client.executeUpdateWithStart('addItem', { workflowId, workflowType: 'cart', taskQueue: queue, updateArgs: ['pen'] }), 2);
    const handle = client.getHandle(workflowId);
    const types = await historyTypes(handle);
    assert.equal(types.filter((t) => t === 'WorkflowExecutionStarted').length, 1);
    assert.deepEqual(await closeAndResult(handle), ['book', 'pen']);
  });

  test('HTTP: POST …/update/{name} answers 200 with the result, 202 at acceptance, 400 for a rejection, 404 for an unknown workflow, and 202 with the stage reached when its wait runs out', async () => {
    const handle = await startCart('http');
    const post = (path: string, body: unknown) => fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await post(`${handle.workflowId}/update/addItem`, { args: ['book'], updateId: 'http-1' });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { workflowId: handle.workflowId, runId: handle.runId, updateId: 'http-1', stage: 'Completed', result: 1 });
    const rejected = await post(`${handle.workflowId}/update/addItem`, { args: [''] });
    assert.equal(rejected.status, 400);
    const body = (await rejected.json()) as { code: string; message: string };
    assert.equal(body.code, 'UpdateRejected');
    assert.match(body.message, /an item needs a name/);
    const missing = await post(`${uniqueName('nobody')}/update/addItem`, { args: ['x'] });
    assert.equal(missing.status, 404);
    const accepted = await post(`${handle.workflowId}/update/addItem`, { args: ['pen'], waitForStage: 'ACCEPTED' });
    assert.equal(accepted.status, 202);
    await closeAndResult(handle);
    // No worker polls this queue: the update is admitted but nobody accepts it in time.
    const unserved = await client.start('cart', { workflowId: uniqueName('unserved'), taskQueue: uniqueName('no-worker') });
    const timedOut = await post(`${unserved.workflowId}/update/addItem`, { args: ['book'], timeout: '1s', updateId: 'waits' });
    assert.equal(timedOut.status, 202);
    assert.deepEqual(await timedOut.json(), { workflowId: unserved.workflowId, runId: unserved.runId, updateId: 'waits', stage: 'Admitted', waitElapsed: true });
    await unserved.terminate('test done');
  });

  test('HTTP: POST …/update-with-start/{name} starts the workflow and answers with the update result', async () => {
    const workflowId = uniqueName('http-uws');
    const response = await fetch(`${base}/${workflowId}/update-with-start/addItem`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowType: 'cart', taskQueue: queue, updateArgs: ['book'], updateId: 'uws-1' }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: number; runId: string; updateId: string };
    assert.equal(body.result, 1);
    assert.equal(body.updateId, 'uws-1');
    assert.deepEqual(await closeAndResult(client.getHandle(workflowId, body.runId)), ['book']);
  });
}
