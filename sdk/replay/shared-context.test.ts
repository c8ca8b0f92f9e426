import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundle } from '../workflow/bundle.js';
import { EvictionRequiredError } from './errors.js';
import { HistoryBuilder } from './history-builder.js';
import { commandsOf, decode, nextTask, testBundle } from './test-harness.js';
import { WorkflowRun } from './workflow-run.js';
import { sharedWatchdogCalls } from '../workflow/shared-watchdog.js';

// Runs of one bundle share a vm context; these tests prove they share nothing a workflow can see.

const path = fileURLToPath(new URL('./test-workflows/run-isolation.ts', import.meta.url));
let bundle: Promise<WorkflowBundle> | undefined;
const isolationBundle = () => (bundle ??= bundleWorkflowCode({ workflowsPath: path }));
const quiet = { logger: () => undefined };

/** A probe's history; each seed also starts the run at its own time (seed × 500 ms after 2024-01-01). */
function probeHistory(workflowId: string, prngSeed: number): HistoryBuilder {
  const runId = `00000000-0000-4000-8000-00000000000${prngSeed}`;
  return new HistoryBuilder({ workflowType: 'isolationProbe', workflowId, runId, prngSeed, startTime: Date.UTC(2024, 0, 1) + prngSeed * 500 }).start();
}

/** Runs an isolation probe to completion on its own and returns its result. */
async function alone(workflowId: string, prngSeed: number): Promise<unknown> {
  const h = probeHistory(workflowId, prngSeed);
  const run = WorkflowRun.create(await isolationBundle(), h.identity, quiet);
  h.completeTask(commandsOf(nextTask(run, h))).advance(1_000).timerFired('1').scheduleTask();
  const [command] = commandsOf(nextTask(run, h));
  run.dispose();
  assert.equal(command?.type, 'CompleteWorkflowExecution');
  return command?.type === 'CompleteWorkflowExecution' ? decode(command.result) : undefined;
}

/** Runs two probes to completion interleaved in one context (A starts, B starts, both resume after their timer) and returns their results. */
async function interleaved(a: HistoryBuilder, b: HistoryBuilder): Promise<[unknown, unknown]> {
  const runA = WorkflowRun.create(await isolationBundle(), a.identity, quiet);
  const runB = WorkflowRun.create(await isolationBundle(), b.identity, quiet);
  a.completeTask(commandsOf(nextTask(runA, a)));
  b.completeTask(commandsOf(nextTask(runB, b)));
  a.advance(1_000).timerFired('1').scheduleTask();
  b.advance(1_000).timerFired('1').scheduleTask();
  const [doneA] = commandsOf(nextTask(runA, a));
  const [doneB] = commandsOf(nextTask(runB, b));
  runA.dispose();
  runB.dispose();
  assert.ok(doneA?.type === 'CompleteWorkflowExecution' && doneB?.type === 'CompleteWorkflowExecution');
  return [decode(doneA.result), decode(doneB.result)];
}

test('interleaved runs of one bundle keep their own module state, assigned globals, random draws and clocks', async () => {
  // A starts and assigns its global, then B starts in the same context, then both resume.
  const [resultA, resultB] = (await interleaved(probeHistory('probe-a', 1), probeHistory('probe-b', 2))) as [Record<string, unknown>, Record<string, unknown>];
  assert.deepEqual(
    { starts: resultA.starts, seenBeforeAssigning: resultA.seenBeforeAssigning, seenAfterSleep: resultA.seenAfterSleep },
    { starts: 1, seenBeforeAssigning: undefined, seenAfterSleep: 'probe-a' },
  );
  assert.deepEqual(
    { starts: resultB.starts, seenBeforeAssigning: resultB.seenBeforeAssigning, seenAfterSleep: resultB.seenAfterSleep },
    { starts: 1, seenBeforeAssigning: undefined, seenAfterSleep: 'probe-b' },
  );
  assert.notEqual(resultA.now, resultB.now, 'each run reads its own workflow clock');
  assert.deepEqual(resultA, await alone('probe-a', 1), 'run A interleaved returns what it returns alone');
  assert.deepEqual(resultB, await alone('probe-b', 2), 'run B interleaved returns what it returns alone');
});

test('a run that deadlocks gives up the shared context: a run cached in it must be replayed, and its replay completes', async () => {
  const waiting = probeHistory('probe-waiting', 3);
  const cached = WorkflowRun.create(await isolationBundle(), waiting.identity, quiet);
  waiting.completeTask(commandsOf(nextTask(cached, waiting)));
  const spinner = new HistoryBuilder({ workflowType: 'spins', workflowId: 'spinner' }).start();
  const spinning = WorkflowRun.create(await isolationBundle(), spinner.identity, { ...quiet, deadlockTimeoutMs: 100 });
  const deadlocked = spinning.activate(spinner.events);
  spinning.dispose();
  assert.equal(deadlocked.type === 'failed' && deadlocked.cause, 'Deadlock');
  waiting.advance(1_000).timerFired('1').scheduleTask();
  assert.throws(() => nextTask(cached, waiting), (err: unknown) => err instanceof EvictionRequiredError && /given up after another run deadlocked/.test(err.message));
  const replay = WorkflowRun.create(await isolationBundle(), waiting.identity, quiet);
  const [command] = commandsOf(replay.activate(waiting.events));
  replay.dispose();
  assert.equal(command?.type, 'CompleteWorkflowExecution');
  assert.deepEqual(command?.type === 'CompleteWorkflowExecution' && decode(command.result), await alone('probe-waiting', 3));
});

test('globals a run defines out of sight of Object.keys — non-enumerable or symbol-keyed — and an installed or built-in global it replaces stay that run\'s', async () => {
  const history = (workflowId: string, seed: number) =>
    new HistoryBuilder({ workflowType: 'hiddenGlobalsProbe', workflowId, runId: `00000000-0000-4000-8000-00000000010${seed}`, prngSeed: seed }).start();
  const [resultA, resultB] = await interleaved(history('hidden-a', 1), history('hidden-b', 2));
  assert.deepEqual(resultA, { seenBefore: { hidden: 'undefined', symbol: 'undefined', setTimeout: 'function', escape: 'function' }, seenAfterSleep: { hidden: 'hidden-a', symbol: 'hidden-a', setTimeout: 'hidden-a', escape: 'hidden-a' } });
  assert.deepEqual(resultB, { seenBefore: { hidden: 'undefined', symbol: 'undefined', setTimeout: 'function', escape: 'function' }, seenAfterSleep: { hidden: 'hidden-b', symbol: 'hidden-b', setTimeout: 'hidden-b', escape: 'hidden-b' } });
});

test('the workflow API that runs of a context share is frozen: a run that changes an exported object, function or class prototype changes it for no one', async () => {
  const history = (workflowId: string, seed: number) =>
    new HistoryBuilder({ workflowType: 'sharedApiProbe', workflowId, runId: `00000000-0000-4000-8000-00000000020${seed}`, prngSeed: seed }).start();
  const [resultA, resultB] = await interleaved(history('api-a', 1), history('api-b', 2));
  const untouched = { abandon: 'ABANDON', marker: 'undefined', prototype: 'undefined', instance: 'undefined' };
  assert.deepEqual(resultA, { seenBefore: untouched, seenAfterSleep: untouched });
  assert.deepEqual(resultB, { seenBefore: untouched, seenAfterSleep: untouched });
});

test('a run that defines a global no one can delete fails its task naming the rule and gives up the shared context: a run cached in it is replayed in a new one', async () => {
  const cachedHistory = probeHistory('pin-cached', 4);
  const cached = WorkflowRun.create(await isolationBundle(), cachedHistory.identity, quiet);
  cachedHistory.completeTask(commandsOf(nextTask(cached, cachedHistory)));
  const pinningHistory = new HistoryBuilder({ workflowType: 'nonConfigurableGlobalProbe', workflowId: 'pin-pinning' }).start();
  const pinning = WorkflowRun.create(await isolationBundle(), pinningHistory.identity, quiet);
  const pinned = pinning.activate(pinningHistory.events);
  pinning.dispose();
  assert.ok(pinned.type === 'failed' && /defined the global pinnedByARun so that it cannot be deleted/.test(pinned.failure.message), JSON.stringify(pinned));
  cachedHistory.advance(1_000).timerFired('1').scheduleTask();
  assert.throws(() => nextTask(cached, cachedHistory), (err: unknown) => err instanceof EvictionRequiredError);
  const replay = WorkflowRun.create(await isolationBundle(), cachedHistory.identity, quiet);
  const [command] = commandsOf(replay.activate(cachedHistory.events));
  replay.dispose();
  assert.equal(command?.type, 'CompleteWorkflowExecution');
  assert.deepEqual(command?.type === 'CompleteWorkflowExecution' && decode(command.result), await alone('pin-cached', 4));
});

test('activations ready together share one watchdog; one that deadlocks fails its own task as Deadlock, and the run started after it in the batch completes in a new context', async () => {
  const noLocalActivities = async () => assert.fail('no local activities here');
  const first = probeHistory('batch-first', 5);
  const second = probeHistory('batch-second', 6);
  const spinner = new HistoryBuilder({ workflowType: 'spins', workflowId: 'batch-spinner' }).start();
  const options = { ...quiet, deadlockTimeoutMs: 200 };
  const [runFirst, runSpinner, runSecond] = await Promise.all([first, spinner, second].map(async (h) => WorkflowRun.create(await isolationBundle(), h.identity, options)));
  const before = sharedWatchdogCalls.count;
  const [doneFirst, deadlocked, doneSecond] = await Promise.all([
    runFirst!.activateWithLocalActivities(first.events, noLocalActivities),
    runSpinner!.activateWithLocalActivities(spinner.events, noLocalActivities),
    runSecond!.activateWithLocalActivities(second.events, noLocalActivities),
  ]);
  assert.equal(deadlocked.type === 'failed' && deadlocked.cause, 'Deadlock');
  assert.match(deadlocked.type === 'failed' ? deadlocked.failure.message : '', /batch-spinner.*did not yield within 200 ms/);
  assert.equal(sharedWatchdogCalls.count - before, 2, 'the first and the spinner shared one bounded call; the second ran in the next');
  // The first run's context was given up by the spinner: its next task needs a replay; the second's is new and goes on.
  first.completeTask(commandsOf(doneFirst)).advance(1_000).timerFired('1').scheduleTask();
  second.completeTask(commandsOf(doneSecond)).advance(1_000).timerFired('1').scheduleTask();
  assert.throws(() => nextTask(runFirst!, first), (err: unknown) => err instanceof EvictionRequiredError);
  const [finished] = commandsOf(nextTask(runSecond!, second));
  assert.equal(finished?.type, 'CompleteWorkflowExecution');
  assert.deepEqual(finished?.type === 'CompleteWorkflowExecution' && decode(finished.result), await alone('batch-second', 6));
  for (const run of [runFirst, runSpinner, runSecond]) run!.dispose();
});

test('a replay of more than a few workflow tasks bounds each activation on its own instead of sharing one timeout; a cached run\'s next task shares', async () => {
  const noLocalActivities = async () => assert.fail('no local activities here');
  const bundle = await testBundle();
  const h = new HistoryBuilder({ workflowType: 'manySteps', workflowId: 'long-replay' }).start(6);
  const recorder = WorkflowRun.create(bundle, h.identity, quiet);
  for (let i = 0; i < 5; i++) h.completeTask(commandsOf(nextTask(recorder, h))).activityCompleted(String(i + 1), 'ok').scheduleTask();
  recorder.dispose();
  const replay = WorkflowRun.create(bundle, h.identity, quiet);
  const before = sharedWatchdogCalls.count;
  const replayed = await replay.activateWithLocalActivities(h.events, noLocalActivities);
  assert.equal(sharedWatchdogCalls.count, before, 'six tasks: no shared watchdog');
  h.completeTask(commandsOf(replayed)).activityCompleted('6', 'ok').scheduleTask();
  const [done] = commandsOf(await replay.activateWithLocalActivities(h.since(replay.lastEventId), noLocalActivities));
  assert.equal(done?.type, 'CompleteWorkflowExecution');
  assert.equal(sharedWatchdogCalls.count, before + 1, 'the next task of the cached run: one shared watchdog');
  replay.dispose();
});

test('a cached run disposed while its activation waits for the shared watchdog asks to be replayed instead of failing the task', async () => {
  const h = probeHistory('disposed-while-queued', 7);
  const run = WorkflowRun.create(await isolationBundle(), h.identity, quiet);
  h.completeTask(commandsOf(nextTask(run, h))).advance(1_000).timerFired('1').scheduleTask();
  const queued = run.activateWithLocalActivities(h.since(run.lastEventId), async () => assert.fail('no local activities here'));
  run.dispose();
  await assert.rejects(queued, (err: unknown) => err instanceof EvictionRequiredError && /disposed/.test(err.message));
});
