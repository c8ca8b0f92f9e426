import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { PATCH_SEARCH_ATTRIBUTE, patchOf } from './patch-markers.js';
import { replayHistory } from './replay-history.js';
import { commandsOf, decode, nextTask } from './test-harness.js';
import { WorkflowRun, type WorkflowTaskResult } from './workflow-run.js';

/** The code versions in `test/workflows/patching`, in deployment order. */
type Version = 'v1' | 'v2-unpatched' | 'v2-patched' | 'v3-deprecated' | 'v4-removed';
const bundles = new Map<Version, Promise<WorkflowBundle>>();

function bundleOf(version: Version): Promise<WorkflowBundle> {
  const workflowsPath = fileURLToPath(new URL(`../../test/workflows/patching/${version}.ts`, import.meta.url));
  if (!bundles.has(version)) bundles.set(version, bundleWorkflowCode({ workflowsPath }));
  return bundles.get(version)!;
}

const activityResults: Record<string, string> = { stepA: 'A', stepB: 'B', audit: 'audited' };

/**
 * Plays the engine for `audited` on one code version: each task's commands are recorded, each
 * scheduled activity completes; stops once the run waits for its signal (it has issued no
 * command), leaving that task recorded. Returns the history and the cached run.
 */
async function runUntilWaiting(version: Version): Promise<{ h: HistoryBuilder; run: WorkflowRun }> {
  const h = new HistoryBuilder({ workflowType: 'audited' }).start();
  const run = WorkflowRun.create(await bundleOf(version), h.identity, { logger: () => undefined });
  for (;;) {
    const commands = commandsOf(nextTask(run, h));
    h.completeTask(commands);
    const scheduled = commands.filter((c) => c.type === 'ScheduleActivityTask');
    if (scheduled.length === 0) return { h, run };
    for (const c of scheduled) h.activityCompleted(c.activityId, activityResults[c.activityType]);
    h.scheduleTask();
  }
}

/** The run's remaining tasks after `go` on a fresh worker running `version` (a full replay, then live). */
async function resumeAfterSignal(h: HistoryBuilder, version: Version): Promise<WorkflowTaskResult> {
  h.signal('go').scheduleTask();
  const run = WorkflowRun.create(await bundleOf(version), h.identity, { logger: () => undefined });
  try {
    let result = nextTask(run, h);
    while (result.type === 'completed') {
      h.completeTask(result.commands);
      const scheduled = result.commands.filter((c) => c.type === 'ScheduleActivityTask');
      if (scheduled.length === 0) return result;
      for (const c of scheduled) h.activityCompleted(c.activityId, activityResults[c.activityType]);
      result = nextTask(run, h.scheduleTask());
    }
    return result;
  } finally {
    run.dispose();
  }
}

function resultOf(result: WorkflowTaskResult): unknown {
  const close = commandsOf(result).find((c): c is Extract<WorkflowCommand, { type: 'CompleteWorkflowExecution' }> => c.type === 'CompleteWorkflowExecution');
  assert.ok(close, 'the run completes');
  return decode(close.result);
}

test('patched() on a live task returns true and records the patch marker with the LogbookChangeVersion upsert', async () => {
  const { h, run } = await runUntilWaiting('v2-patched');
  run.dispose();
  const marker = h.events.find((e) => patchOf(e) !== null);
  assert.ok(marker);
  assert.deepEqual(patchOf(marker), { patchId: 'add-audit', deprecated: false });
  const upsert = h.events[marker.eventId];
  assert.ok(upsert?.attributes.type === 'UpsertWorkflowSearchAttributes');
  assert.deepEqual(upsert.attributes.searchAttributes[PATCH_SEARCH_ATTRIBUTE], { type: 'KeywordList', value: ['add-audit'] });
  assert.equal(resultOf(await resumeAfterSignal(h, 'v2-patched')), 'A+audited+B');
});

test('a change deployed without patched() fails a run started on the old code with NonDeterminism', async () => {
  const { h, run } = await runUntilWaiting('v1');
  run.dispose();
  const result = await resumeAfterSignal(h, 'v2-unpatched');
  assert.equal(result.type, 'failed');
  if (result.type !== 'failed') return;
  assert.equal(result.cause, 'NonDeterminism');
  assert.match(result.failure.message, /produced ScheduleActivityTask\(activityType=audit, activityId=2\)/);
});

test('patched() returns false replaying a history without its marker, so a run started on the old code finishes on the old path', async () => {
  const { h, run } = await runUntilWaiting('v1');
  run.dispose();
  assert.equal(resultOf(await resumeAfterSignal(h, 'v2-patched')), 'A+B');
  assert.equal(h.events.some((e) => patchOf(e) !== null), false);
});

test('a cached run agrees with a full replay when patched() ran live in an earlier task', async () => {
  const { h, run } = await runUntilWaiting('v2-patched');
  h.signal('go').scheduleTask();
  const cached = commandsOf(nextTask(run, h));
  run.dispose();
  const replayed = WorkflowRun.create(await bundleOf('v2-patched'), h.identity, { logger: () => undefined });
  assert.deepEqual(commandsOf(replayed.activate(h.events)), cached);
  replayed.dispose();
  assert.deepEqual(cached.map((c) => c.type === 'ScheduleActivityTask' && c.activityType), ['stepB']);
});

test('deprecatePatch() replays histories with the marker and records a deprecated marker for new runs', async () => {
  const patchedRun = await runUntilWaiting('v2-patched');
  patchedRun.run.dispose();
  assert.equal(resultOf(await resumeAfterSignal(patchedRun.h, 'v3-deprecated')), 'A+audited+B');

  const { h, run } = await runUntilWaiting('v3-deprecated');
  run.dispose();
  assert.deepEqual(patchOf(h.events.find((e) => patchOf(e) !== null)!), { patchId: 'add-audit', deprecated: true });
  assert.equal(resultOf(await resumeAfterSignal(h, 'v3-deprecated')), 'A+audited+B');
});

test('removing the patch call skips a deprecated marker (and its upsert) but not a marker recorded by patched()', async () => {
  const deprecated = await runUntilWaiting('v3-deprecated');
  deprecated.run.dispose();
  assert.deepEqual(replayHistory(await bundleOf('v4-removed'), deprecated.h.events), { ok: true });

  const notDeprecated = await runUntilWaiting('v2-patched');
  notDeprecated.run.dispose();
  const result = replayHistory(await bundleOf('v4-removed'), notDeprecated.h.events);
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.match(result.error.message, /history recorded MarkerRecorded\(markerName=sdk\.patch, patchId=add-audit\) but the workflow code produced ScheduleActivityTask\(activityType=audit/);
});

test('a run whose history lacks a deprecated patch takes the new path without recording a marker on replay', async () => {
  // A run that reached the patch point live on v4 (no marker), replayed by v3: deprecatePatch() must not add one.
  const { h, run } = await runUntilWaiting('v4-removed');
  run.dispose();
  assert.deepEqual(replayHistory(await bundleOf('v3-deprecated'), h.events), { ok: true });
});

test('a query handler calling patched() for an unrecorded patch is refused and leaves the run to record the marker itself', async () => {
  const bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./test-workflows/patch-in-query.ts', import.meta.url)) });
  const h = new HistoryBuilder({ workflowType: 'queriedPatch' }).start();
  const run = WorkflowRun.create(bundle, h.identity, { logger: () => undefined });
  h.completeTask(commandsOf(nextTask(run, h)));
  const refused = run.query('usesPatch', []);
  assert.equal(refused.type, 'failed');
  if (refused.type === 'failed') assert.match(refused.failure.message, /tried to issue a SetPatchMarker command/);

  h.signal('go').scheduleTask();
  const commands = commandsOf(nextTask(run, h));
  run.dispose();
  assert.deepEqual(commands.map((c) => patchOf(c)), [{ patchId: 'query-patch', deprecated: false }, null, null]);
  assert.equal(resultOf({ type: 'completed', commands }), true);
});
