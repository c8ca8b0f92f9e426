import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { openRunsLackingPatch } from '../../gateway/patch-listing.js';
import { scanLocalVisibility } from '../../gateway/shard-coverage.js';
import { PATCH_SEARCH_ATTRIBUTE, patchOf } from '../../sdk/replay/patch-markers.js';
import { sideEffectOf } from '../../sdk/replay/side-effect-markers.js';
import { Worker } from '../../sdk/worker/worker.js';
import * as activities from '../workflows/patching/activities.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/**
 * Versioning end to end (the seed failure walkthrough): runs started on v1 wait for a signal; a
 * change deployed without `patched` fails them with NonDeterminismError; the same change behind
 * `patched('add-audit')` lets them finish on the old path while new runs take the new one; then
 * `deprecatePatch` once only patched runs are open.
 */

const sideEffectWorkflows = (name: string): string => fileURLToPath(new URL(`../workflows/${name}.ts`, import.meta.url));
const version = (name: string): string => fileURLToPath(new URL(`../workflows/patching/${name}.ts`, import.meta.url));

/** Registers the versioning walkthrough for one backend. */
export function patchingConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, { workers: false });
  });
  after(async () => t.stop());

  test('a v1 run fails on an unpatched deploy, then old runs finish on the old path and new runs take the patched path; deprecatePatch finishes patched runs', async (context) => {
    const queue = uniqueName('patching');
    // Every deploy still running is stopped when the test ends, also after a failed assertion: a
    // worker left polling keeps the test process alive, so the failure would never be reported.
    const running = new Set<Worker>();
    context.after(async () => {
      await Promise.all([...running].map((worker) => worker.stop(1_000)));
    });
    const deploy = async (name: string): Promise<Worker> => {
      const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: version(name), activities, history: engineHistoryFetcher(t.engine) });
      running.add(worker);
      await worker.start();
      return worker;
    };
    const retire = async (worker: Worker) => {
      running.delete(worker);
      await worker.stop(1_000);
    };
    // An activity's result is in history before the worker has run the workflow task that takes it.
    // Stopping the worker in between hands that task to the next deploy, which then runs the rest on
    // its own code path (a v1 run would take the unpatched audit step and never replay on the fix), so
    // a run is waiting only once a workflow task has completed after its `count`-th activity result.
    const waitingAfterActivities = async (id: string, runId: string, count: number) => {
      const events = await t.history(id, runId);
      const results = events.flatMap((e, i) => (e.attributes.type === 'ActivityTaskCompleted' ? [i] : []));
      const nth = results[count - 1];
      return nth !== undefined && events.slice(nth + 1).some((e) => e.attributes.type === 'WorkflowTaskCompleted');
    };
    const waitForActivities = (id: string, runId: string, count: number) =>
      waitFor(`${id} to complete ${count} activities and wait for its signal`, () => waitingAfterActivities(id, runId, count), 60_000);
    const lackingAudit = async () =>
      (await openRunsLackingPatch((await scanLocalVisibility(t.engine)).rows, { namespace: 'default', workflowType: 'audited', patchId: 'add-audit' })).map((r) => r.workflowId);

    // v1: two runs reach their wait.
    const v1 = await deploy('v1');
    const broken = uniqueName('broken');
    const old = uniqueName('old');
    const brokenRun = await t.start('audited', queue, broken, []);
    const oldRun = await t.start('audited', queue, old, []);
    await waitForActivities(broken, brokenRun, 1);
    await waitForActivities(old, oldRun, 1);
    await retire(v1);

    // The bad deploy: the signalled run cannot replay.
    const unpatched = await deploy('v2-unpatched');
    await t.signal(broken, 'go', []);
    const failed = await waitFor('the workflow task to fail', async () => (await t.history(broken, brokenRun)).find((e) => e.attributes.type === 'WorkflowTaskFailed'), 60_000);
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'NonDeterministicError');
    assert.match(failed.attributes.failure?.message ?? '', /produced ScheduleActivityTask\(activityType=audit/);
    assert.equal((await t.engine.describe('default', broken))?.executionInfo.status, 'Running');
    await retire(unpatched);

    // The fix: the broken run resumes on the old path; a new run takes the new one and records the patch.
    const patched = await deploy('v2-patched');
    assert.equal(resultOf<string>(t.engine, await t.result(broken, 120_000)), 'A+B');
    const fresh = uniqueName('fresh');
    const freshRun = await t.start('audited', queue, fresh, []);
    await waitForActivities(fresh, freshRun, 2);
    const marker = (await t.history(fresh, freshRun)).find((e) => patchOf(e) !== null);
    assert.deepEqual(marker && patchOf(marker), { patchId: 'add-audit', deprecated: false });
    const row = await t.engine.visibilityRow('default', fresh, freshRun);
    assert.deepEqual(row?.searchAttributes[PATCH_SEARCH_ATTRIBUTE], { type: 'KeywordList', value: ['add-audit'] });
    assert.deepEqual(await lackingAudit(), [old], 'only the v1 run still waiting lacks the patch');
    await t.signal(old, 'go', []);
    assert.equal(resultOf<string>(t.engine, await t.result(old, 120_000)), 'A+B');
    assert.deepEqual(await waitFor('no open run to lack the patch', async () => ((await lackingAudit()).length === 0 ? [] : undefined)), []);
    await retire(patched);

    // No open run lacks the patch: deprecate it. The patched run finishes, a new one records a deprecated marker.
    await deploy('v3-deprecated');
    await t.signal(fresh, 'go', []);
    assert.equal(resultOf<string>(t.engine, await t.result(fresh, 120_000)), 'A+audited+B');
    const newest = uniqueName('newest');
    const newestRun = await t.start('audited', queue, newest, []);
    await waitForActivities(newest, newestRun, 2);
    await t.signal(newest, 'go', []);
    assert.equal(resultOf<string>(t.engine, await t.result(newest, 120_000)), 'A+audited+B');
    const deprecatedMarker = (await t.history(newest, newestRun)).find((e) => patchOf(e) !== null);
    assert.deepEqual(deprecatedMarker && patchOf(deprecatedMarker), { patchId: 'add-audit', deprecated: true });
  });

  test('a sideEffect value recorded in history is what a new worker replaying the run returns, even with changed code', async () => {
    const queue = uniqueName('side-effect');
    const deploy = async (name: string): Promise<Worker> => {
      const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: sideEffectWorkflows(name), history: engineHistoryFetcher(t.engine) });
      await worker.start();
      return worker;
    };
    const first = await deploy('side-effect');
    const id = uniqueName('token');
    const runId = await t.start('tokenAfterSignal', queue, id, []);
    const marker = await waitFor('the side effect to be recorded', async () => {
      for (const e of await t.history(id, runId)) {
        const recorded = e.attributes.type === 'MarkerRecorded' ? sideEffectOf(e.attributes.markerName, e.attributes.details) : null;
        if (recorded !== null) return recorded;
      }
      return undefined;
    }, 60_000);
    const token = t.engine.dataConverter.fromPayload<string>(marker.value);
    assert.match(token, /^token-/);
    await first.stop(1_000);

    // A fresh worker with changed code has no cached run: it replays the history and must return the recorded token.
    const second = await deploy('side-effect-changed');
    try {
      await t.signal(id, 'go', []);
      assert.equal(resultOf<string>(t.engine, await t.result(id, 120_000)), token);
    } finally {
      await second.stop(1_000);
    }
  });
}
