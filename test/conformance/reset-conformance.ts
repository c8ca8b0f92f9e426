import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient, WorkflowClientError, type WorkflowHandle } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import * as patchingActivities from '../workflows/patching/activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * Reset end to end through the client and the HTTP API (the seed walkthrough): a run waiting for a
 * signal after step A meets a bad deploy that fails its workflow task with non-determinism; the
 * operator stops it, resets the run to its last good workflow task and deploys the fixed code; the
 * new run re-applies the signal, decides again with the fixed code and completes, and step A is
 * not run again. The versioning walkthrough's workflow versions are reused.
 */

const version = (name: string): string => fileURLToPath(new URL(`../workflows/patching/${name}.ts`, import.meta.url));

type HistoryView = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** Registers the reset tests for one backend. */
export function resetConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  const calls = { stepA: 0, stepB: 0, audit: 0 };
  // Counted so the test sees which activities ran (the workers run in this process).
  const activities = {
    stepA: async () => (calls.stepA++, patchingActivities.stepA()),
    stepB: async () => (calls.stepB++, patchingActivities.stepB()),
    audit: async () => (calls.audit++, patchingActivities.audit()),
  };

  before(async () => {
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    client = new WorkflowClient({ address: addressOf(server) });
  });
  after(async () => {
    server.close();
    await t.stop();
  });

  const deploy = async (queue: string, name: string): Promise<Worker> => {
    const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: version(name), activities, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    return worker;
  };
  const historyOf = (workflowId: string, runId: string): Promise<HistoryView> => client.getHandle(workflowId, runId).fetchHistory();
  const lastCompletedTask = (events: HistoryView): number => events.filter((e) => e.attributes.type === 'WorkflowTaskCompleted').at(-1)!.eventId;

  test('a run failed by a bad deploy is reset to its last good workflow task and completes on the fixed code, re-applying its signal without running step A again', async () => {
    const queue = uniqueName('reset');
    const id = uniqueName('reset-run');
    const good = await deploy(queue, 'v1');
    const handle = await client.start('audited', { workflowId: id, taskQueue: queue });
    const baseRunId = handle.runId!;
    // Step A done and the run waiting for `go`: its last workflow task completed after the activity.
    const waiting = await waitFor('step A to complete and the run to wait', async () => {
      const events = await historyOf(id, baseRunId);
      const completedAt = events.findIndex((e) => e.attributes.type === 'ActivityTaskCompleted');
      return completedAt >= 0 && events.slice(completedAt).some((e) => e.attributes.type === 'WorkflowTaskCompleted') ? events : undefined;
    }, 60_000);
    const lastGoodTask = lastCompletedTask(waiting);
    await good.stop(1_000);

    // The bad deploy: the signalled run cannot replay and its workflow task fails.
    const bad = await deploy(queue, 'v2-unpatched');
    const outcome = handle.result('120s');
    await handle.signal('go');
    await waitFor('the workflow task to fail', async () => (await historyOf(id, baseRunId)).find((e) => e.attributes.type === 'WorkflowTaskFailed' && e.attributes.cause === 'NonDeterministicError'), 60_000);
    await bad.stop(1_000);

    // The operator resets to the last good task, then deploys the fix.
    const newRunId = await handle.reset({ eventId: lastGoodTask, reason: 'bad deploy: audit step without patched', requestId: `reset-${id}` });
    assert.notEqual(newRunId, baseRunId);
    assert.equal(await handle.reset({ eventId: lastGoodTask, reason: 'retried call', requestId: `reset-${id}` }), newRunId, 'a retried reset returns the same run');
    const fixed = await deploy(queue, 'v2-patched');
    try {
      const closed = await outcome;
      assert.deepEqual([closed.runId, closed.status, closed.result], [newRunId, 'Completed', 'A+audited+B'], 'the waiting caller follows the reset to the new run');
    } finally {
      await fixed.stop(1_000);
    }
    assert.deepEqual(calls, { stepA: 1, audit: 1, stepB: 1 }, 'step A ran once, before the reset; the fixed code decided the rest');

    const base = await historyOf(id, baseRunId);
    assert.deepEqual(base.at(-1)!.attributes, { type: 'WorkflowExecutionTerminated', reason: 'reset', details: null, identity: 'http-gateway' });
    const fresh = await historyOf(id, newRunId);
    assert.deepEqual(fresh.slice(0, lastGoodTask - 1).map((e) => e.attributes), base.slice(0, lastGoodTask - 1).map((e) => e.attributes), 'the new run keeps the base events up to the good task\'s start');
    const afterPoint = fresh.slice(lastGoodTask - 1, lastGoodTask + 2).map((e) => e.attributes);
    assert.deepEqual(afterPoint.map((a) => a.type), ['WorkflowTaskFailed', 'WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
    assert.equal((afterPoint[0]?.failure as { code: string }).code, 'ResetWorkflow');
    assert.equal(afterPoint[1]?.signalName, 'go');
    assert.equal(fresh.filter((e) => e.attributes.type === 'ActivityTaskScheduled' && e.attributes.activityType === 'stepA').length, 1);
  });

  test('reset answers 400 for an event that is not a workflow task event and 404 for an unknown workflow', async () => {
    const queue = uniqueName('reset-errors');
    const worker = await deploy(queue, 'v1');
    try {
      const id = uniqueName('reset-bad-event');
      const handle = await client.start('audited', { workflowId: id, taskQueue: queue });
      await waitFor('the first workflow task to complete', async () => (await handle.fetchHistory()).some((e) => e.attributes.type === 'WorkflowTaskCompleted'), 60_000);
      const refused = await handle.reset({ eventId: 1, reason: 'wrong event' }).then(() => null, (e: unknown) => e);
      assert.ok(refused instanceof WorkflowClientError);
      assert.deepEqual([refused.status, refused.code], [400, 'InvalidArgument']);
      assert.match(refused.message, /event 1 is a WorkflowExecutionStarted, not a workflow task event/);
      const unknown = await client.getHandle(uniqueName('no-such-workflow')).reset({ eventId: 4 }).then(() => null, (e: unknown) => e);
      assert.ok(unknown instanceof WorkflowClientError);
      assert.deepEqual([unknown.status, unknown.code], [404, 'WorkflowNotFound']);
      await client.getHandle(id).terminate('test over');
    } finally {
      await worker.stop(1_000);
    }
  });
}
