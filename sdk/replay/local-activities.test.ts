import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import { bundleWorkflowCode } from '../workflow/bundle.js';
import { HistoryBuilder } from './history-builder.js';
import { LOCAL_ACTIVITY_MARKER_NAME, localActivityOf, type LocalActivityOutcome, type LocalActivityRequest } from './local-activity-markers.js';
import { commandsOf, decode, payload } from './test-harness.js';
import { WorkflowRun, type WorkflowTaskResult } from './workflow-run.js';

const bundle = () => bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./test-workflows/local-activities.ts', import.meta.url)) });

/** A runner that completes `lookup(key)` with `<key>-found` and remembers the requests. */
function recordingRunner(seen: LocalActivityRequest[]) {
  return async (requests: readonly LocalActivityRequest[]): Promise<LocalActivityOutcome[]> => {
    seen.push(...requests);
    return requests.map((r) => ({ seq: r.seq, activityType: r.activityType, attempt: r.options.attempt, kind: 'completed', result: payload(`${decode(r.args[0]!)}-found`) }));
  };
}

const neverRun = async (): Promise<LocalActivityOutcome[]> => assert.fail('replay must not run a local activity');
const markerOf = (c: WorkflowCommand) => (c.type === 'RecordMarker' ? localActivityOf(c.markerName, c.details, c.failure) : null);

function completedWith(result: WorkflowTaskResult): unknown {
  const close = commandsOf(result).find((c): c is Extract<WorkflowCommand, { type: 'CompleteWorkflowExecution' }> => c.type === 'CompleteWorkflowExecution');
  assert.ok(close, 'the run completes');
  return decode(close.result);
}

test('local activities run within the workflow task, each outcome recorded as an sdk.local-activity marker before the commands that follow it', async () => {
  const h = new HistoryBuilder({ workflowType: 'lookupTwice' }).start('sku-1');
  const run = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  const seen: LocalActivityRequest[] = [];
  const commands = commandsOf(await run.activateWithLocalActivities(h.events, recordingRunner(seen)));
  assert.deepEqual(seen.map((r) => [r.seq, r.activityType, decode(r.args[0]!), r.options.attempt, r.options.startToCloseTimeoutMs]), [
    [1, 'lookup', 'sku-1', 1, 1000], [2, 'lookup', 'sku-1-found!', 1, 1000],
  ]);
  assert.deepEqual(commands.map((c) => (c.type === 'RecordMarker' ? c.markerName : c.type)), [LOCAL_ACTIVITY_MARKER_NAME, LOCAL_ACTIVITY_MARKER_NAME, 'StartTimer']);
  assert.deepEqual(commands.slice(0, 2).map((c) => { const m = markerOf(c)!; return [m.seq, m.attempt, m.kind === 'completed' ? decode(m.result) : m.kind]; }), [
    [1, 1, 'sku-1-found'], [2, 1, 'sku-1-found!-found'],
  ]);
  h.completeTask(commands).timerFired('1').scheduleTask();
  assert.equal(completedWith(await run.activateWithLocalActivities(h.since(run.lastEventId), neverRun)), 'sku-1-found!-found');
  run.dispose();

  const replay = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  assert.equal(completedWith(await replay.activateWithLocalActivities(h.events, neverRun)), 'sku-1-found!-found', 'a full replay takes both results from the markers');
  replay.dispose();
});

test('a backoff outcome makes the workflow wait on a durable timer and ask for the next attempt in a later task', async () => {
  const h = new HistoryBuilder({ workflowType: 'lookupTwice' }).start('sku-2');
  const run = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  const failure = { message: 'store down', source: 'TypeScriptSDK', stackTrace: '', code: 'Error', nonRetryable: false, details: null, cause: null };
  const backoff = async (requests: readonly LocalActivityRequest[]): Promise<LocalActivityOutcome[]> =>
    requests.map((r) => ({ seq: r.seq, activityType: r.activityType, attempt: 3, kind: 'backoff', failure, backoffMs: 30_000 }));
  const first = commandsOf(await run.activateWithLocalActivities(h.events, backoff));
  assert.deepEqual(first.map((c) => c.type), ['RecordMarker', 'StartTimer']);
  assert.deepEqual(first[1], { type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 30_000 });
  h.completeTask(first).timerFired('1').scheduleTask();
  const seen: LocalActivityRequest[] = [];
  const second = commandsOf(await run.activateWithLocalActivities(h.since(run.lastEventId), recordingRunner(seen)));
  assert.deepEqual(seen.map((r) => [r.seq, r.options.attempt]), [[2, 4], [3, 1]], 'attempt 4 of the first lookup after the timer, then the second lookup');
  assert.equal(second.filter((c) => markerOf(c) !== null).length, 2);
  run.dispose();
});

test('replaying code that asks for a local activity the recorded task has no marker for fails with a NonDeterminismError', async () => {
  const h = new HistoryBuilder({ workflowType: 'lookupTwice' }).start('sku-3');
  h.completeTask([{ type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 1000 }]).timerFired('1').scheduleTask();
  const replay = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  const result = await replay.activateWithLocalActivities(h.events, neverRun);
  assert.equal(result.type, 'failed');
  assert.ok(result.type === 'failed');
  assert.equal(result.cause, 'NonDeterminism');
  assert.match(result.failure.message, /local activity lookup #1/);
  replay.dispose();
});

test('a query worker running a pending task stops at its local activities without running them', async () => {
  const h = new HistoryBuilder({ workflowType: 'lookupTwice' }).start('sku-4');
  const run = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  assert.deepEqual(commandsOf(run.activateForQuery(h.events)), [], 'the code waits for the first lookup; no marker is made up');
  run.dispose();
  const plain = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  const refused = plain.activate(h.events);
  assert.ok(refused.type === 'failed');
  assert.match(refused.failure.message, /no local activity runner/);
  plain.dispose();
});

test('an update handler that runs a local activity replays from its marker, recorded between the update\'s accepted and completed events', async () => {
  const h = new HistoryBuilder({ workflowType: 'cartWithLookups' }).start();
  const run = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  h.completeTask(commandsOf(await run.activateWithLocalActivities(h.events, neverRun)));
  h.scheduleTask();
  const update = {
    messageId: 'u1/request', protocolInstanceId: 'u1', sequencingEventId: h.events.at(-1)!.eventId,
    request: { updateId: 'u1', identity: 'test', name: 'addLookedUp', header: {}, args: [payload('book')] },
  };
  const seen: LocalActivityRequest[] = [];
  const live = commandsOf(await run.activateWithLocalActivities(h.since(run.lastEventId), recordingRunner(seen), [update]));
  assert.equal(seen.length, 1, 'the handler ran its local activity live');
  h.completeTask(live).signal('doneAdding').scheduleTask();
  const types = h.events.map((e) => e.attributes.type);
  assert.ok(types.indexOf('WorkflowExecutionUpdateAccepted') < types.indexOf('MarkerRecorded'), `accepted before the marker: ${types.join(', ')}`);

  const replayed = WorkflowRun.create(await bundle(), h.identity, { logger: () => undefined });
  assert.deepEqual(completedWith(await replayed.activateWithLocalActivities(h.events, neverRun)), ['book-found']);
});
