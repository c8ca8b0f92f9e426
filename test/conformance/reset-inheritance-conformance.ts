import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient, type WorkflowHandle } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * Reset of runs that used child workflows or updates before the reset point, through the client
 * and the HTTP API, with 8 shards (a parent and its child on different shards): the reset run
 * inherits the running child and gets its result; an update accepted before the point and still
 * running is run again by the worker in the new run, which completes and replays cleanly.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/reset-inheritance.ts', import.meta.url));
const SHARDS = 8;

type HistoryView = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** Registers the tests for one backend. */
export function resetInheritanceConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let worker: Worker;
  const queue = uniqueName('reset-inheritance');

  before(async () => {
    t = await startTestEngine(backend, { workers: false, shards: SHARDS });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    server = await serveGateway(t.engine);
    client = new WorkflowClient({ address: addressOf(server) });
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  const historyOf = (workflowId: string, runId: string): Promise<HistoryView> => client.getHandle(workflowId, runId).fetchHistory();
  const types = (events: HistoryView): string[] => events.map((e) => e.attributes.type);
  /** The run's last WorkflowTaskCompleted once `ready` holds for its history. */
  const lastCompletedTaskOnce = (what: string, workflowId: string, runId: string, ready: (events: HistoryView) => boolean) =>
    waitFor(what, async () => {
      const events = await historyOf(workflowId, runId);
      const last = events.at(-1);
      return ready(events) && last?.attributes.type === 'WorkflowTaskCompleted' ? last.eventId : undefined;
    }, 60_000);
  /** The workflow task failures of a run other than the reset's own. */
  const otherTaskFailures = (events: HistoryView) =>
    events.filter((e) => e.attributes.type === 'WorkflowTaskFailed' && (e.attributes.failure as { code?: string } | null)?.code !== 'ResetWorkflow');

  /** A parent id and a child id that live on different shards. */
  const idsOnDifferentShards = (label: string): [string, string] => {
    const parent = uniqueName(label);
    for (let i = 0; ; i++) {
      const child = `${parent}-child${i}`;
      if (t.engine.catalog.shardOf('default', parent) !== t.engine.catalog.shardOf('default', child)) return [parent, child];
    }
  };

  test('a parent reset while its child runs on another shard keeps the child, and the child\'s result reaches the new run', async () => {
    const [parentId, childId] = idsOnDifferentShards('reset-parent');
    const handle = await client.start('parentWaitsForChild', { workflowId: parentId, taskQueue: queue, args: [childId] });
    const baseRunId = handle.runId!;
    const point = await lastCompletedTaskOnce('the child to start and the parent to wait', parentId, baseRunId, (e) => types(e).includes('ChildWorkflowExecutionStarted'));
    const outcome = handle.result('120s');

    const newRunId = await handle.reset({ eventId: point, reason: 'reset with a running child' });
    assert.notEqual(newRunId, baseRunId);
    const child = client.getHandle(childId);
    assert.equal((await child.describe() as { executionInfo: { status: string } }).executionInfo.status, 'Running', 'the reset leaves the child running');
    await child.signal('release');

    const closed = await outcome;
    assert.deepEqual([closed.runId, closed.status, closed.result], [newRunId, 'Completed', 'released']);
    const fresh = await historyOf(parentId, newRunId);
    assert.ok(types(fresh).includes('ChildWorkflowExecutionCompleted'), types(fresh).join());
    assert.deepEqual(otherTaskFailures(fresh), [], 'the new run replays cleanly');
    assert.deepEqual((await historyOf(parentId, baseRunId)).at(-1)!.attributes.type, 'WorkflowExecutionTerminated');
    const childParent = (await child.describe() as { executionInfo: { parent: { runId: string } | null } }).executionInfo.parent;
    assert.equal(childParent?.runId, baseRunId, 'the child still names the run that started it');
  });

  test('the reset run signals the child it inherited through the child handle, and gets its result', async () => {
    const [parentId, childId] = idsOnDifferentShards('reset-signalling-parent');
    const handle = await client.start('parentReleasesChild', { workflowId: parentId, taskQueue: queue, args: [childId] });
    const point = await lastCompletedTaskOnce('the child to start and the parent to wait', parentId, handle.runId!, (e) => types(e).includes('ChildWorkflowExecutionStarted'));
    const newRunId = await handle.reset({ eventId: point, reason: 'reset before the release' });
    await client.getHandle(parentId).signal('forward');
    const closed = await handle.result('120s');
    assert.deepEqual([closed.runId, closed.status, closed.result], [newRunId, 'Completed', 'released']);
    const fresh = await historyOf(parentId, newRunId);
    assert.ok(types(fresh).includes('ExternalWorkflowExecutionSignaled'), types(fresh).join());
    assert.deepEqual(otherTaskFailures(fresh), [], 'the new run replays cleanly');
  });

  test('a run reset past an accepted update still running re-runs its handler in the new run, which completes and replays cleanly', async () => {
    const id = uniqueName('reset-approval');
    const started = await client.start('approval', { workflowId: id, taskQueue: queue });
    const baseRunId = started.runId!;
    const handle = client.getHandle(id);
    await handle.startUpdate('approve', { args: ['invoice'], updateId: 'approve-1', waitForStage: 'ACCEPTED' });
    // A caller waiting for the outcome before the reset follows the update to the new run.
    const waiting = handle.executeUpdate<string>('approve', { args: ['invoice'], updateId: 'approve-1' });
    await handle.signal('poke');
    const point = await lastCompletedTaskOnce('the poke to be handled after the acceptance', id, baseRunId, (e) => {
      const accepted = e.findIndex((x) => x.attributes.type === 'WorkflowExecutionUpdateAccepted');
      return accepted >= 0 && e.slice(accepted).some((x) => x.attributes.type === 'WorkflowExecutionSignaled');
    });

    const newRunId = await handle.reset({ eventId: point, reason: 'reset past an accepted update' });
    await handle.signal('confirm');
    assert.equal(await waiting, 'approved invoice');
    assert.equal(await handle.getUpdateHandle<string>('approve-1').result(), 'approved invoice', 'the update\'s outcome is the new run\'s');
    const closed = await handle.result('120s');
    assert.deepEqual([closed.runId, closed.status, closed.result], [newRunId, 'Completed', 'invoice after 1 poke(s)']);

    const fresh = await historyOf(id, newRunId);
    assert.deepEqual(types(fresh).filter((type) => type.startsWith('WorkflowExecutionUpdate')), ['WorkflowExecutionUpdateAccepted', 'WorkflowExecutionUpdateCompleted']);
    assert.deepEqual(otherTaskFailures(fresh), [], 'the new run replays cleanly');
    const base = await historyOf(id, baseRunId);
    assert.deepEqual([types(base).includes('WorkflowExecutionUpdateCompleted'), base.at(-1)!.attributes.type], [false, 'WorkflowExecutionTerminated']);
  });
}
