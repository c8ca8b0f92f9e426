import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import * as activities from '../workflows/nondeterminism/activities.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { Worker } from '../../sdk/worker/worker.js';
import { resultOf, startTestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const V1 = fileURLToPath(new URL('../workflows/nondeterminism/v1.ts', import.meta.url));
const V2 = fileURLToPath(new URL('../workflows/nondeterminism/v2.ts', import.meta.url));

test('a bad deploy that reorders activities fails the workflow task with NonDeterminismError naming the event; the run stays open and resumes when the original code is back', async () => {
  const t = await startTestEngine('kafka', { workers: false });
  const queue = uniqueName('nd');
  const worker = (path: string) => new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: path, activities, history: engineHistoryFetcher(t.engine) });
  try {
    const id = uniqueName('two-steps');
    const original = worker(V1);
    await original.start();
    const runId = await t.start('twoSteps', queue, id, []);
    await waitFor('step A to complete', async () => (await t.history(id, runId)).some((e) => e.attributes.type === 'ActivityTaskCompleted'), 60_000);
    await original.stop(1_000);

    const bad = worker(V2);
    await bad.start();
    await t.signal(id, 'go', []);
    const failed = await waitFor('the workflow task to fail', async () => (await t.history(id, runId)).find((e) => e.attributes.type === 'WorkflowTaskFailed'), 60_000);
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'NonDeterministicError');
    assert.match(failed.attributes.failure?.message ?? '', /event 5/);
    assert.match(failed.attributes.failure?.message ?? '', /stepA/);
    assert.match(failed.attributes.failure?.message ?? '', /stepB/);
    assert.equal((await t.engine.describe('default', id))?.executionInfo.status, 'Running');
    await bad.stop(1_000);

    const fixed = worker(V1);
    await fixed.start();
    try {
      assert.equal(resultOf<string>(t.engine, await t.result(id, 120_000)), 'A+B');
    } finally {
      await fixed.stop(1_000);
    }
  } finally {
    await t.stop();
  }
});
