import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readHistories } from '../support/history-audit.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';

const TIMERS = fileURLToPath(new URL('../workflows/timers.ts', import.meta.url));
const POLLERS = fileURLToPath(new URL('../workflows/continue-as-new.ts', import.meta.url));

/**
 * `CommandClient.execute`: a start and the wait for the run it starts, written together. The
 * engine applies them in order, so the wait finds the run the start made — or, when the start
 * answers with another run, the client waits for that one.
 */
export function executeConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, {
      shards: 2,
      workers: false,
      extraWorkers: [
        { taskQueue: 'timers', workflowsPath: TIMERS },
        { taskQueue: 'pollers', workflowsPath: POLLERS },
      ],
    });
  });
  after(async () => t.stop());

  const sleeper = (workflowId: string, ms: number, policy?: 'Fail' | 'UseExisting') => ({
    workflowId,
    workflowType: 'sleeper',
    taskQueue: 'timers',
    args: [ms],
    ...(policy ? { workflowIdConflictPolicy: policy } : {}),
  });

  test('execute starts a workflow and answers with the result of the run it started, which ran once', async () => {
    const id = uniqueName('execute');
    const { start, result } = await t.engine.client.execute(sleeper(id, 50));
    assert.equal(start.kind, 'StartAccepted');
    assert.equal(result?.kind, 'Result');
    assert.equal(result?.runId, start.runId);
    assert.ok(resultOf<{ sleptMs: number }>(t.engine, result!).sleptMs >= 50, 'the result of a run that slept its 50 ms');
    const runs = [...(await readHistories(t.engine.log, t.engine.catalog)).keys()].filter((key) => key.startsWith(`${id}/`));
    assert.deepEqual(runs, [`${id}/${start.runId}`], 'one run');
  });

  test('execute under conflict policy UseExisting while the workflow runs waits for the running run and starts none', async () => {
    const id = uniqueName('execute-existing');
    const running = await t.start('sleeper', 'timers', id, [2_000]);
    const { start, result } = await t.engine.client.execute(sleeper(id, 10, 'UseExisting'));
    assert.equal(start.kind, 'AlreadyStarted');
    assert.equal(start.runId, running);
    assert.equal(result?.runId, running);
    assert.ok(resultOf<{ sleptMs: number }>(t.engine, result!).sleptMs >= 2_000, "the running run's result (2 s), not a new run's (10 ms)");
    const runs = [...(await readHistories(t.engine.log, t.engine.catalog)).keys()].filter((key) => key.startsWith(`${id}/`));
    assert.deepEqual(runs, [`${id}/${running}`], 'no second run');
  });

  test('execute of a workflow that continues as new answers with the last run of the chain, unless followRuns is false', async () => {
    const state = { done: 0, total: 6, perRun: 2, pauseEvery: 1, heedSuggestion: false, runs: 0 };
    const poller = (workflowId: string) => ({ workflowId, workflowType: 'poller', taskQueue: 'pollers', args: [state] });
    const followed = await t.engine.client.execute(poller(uniqueName('execute-chain')));
    assert.equal(followed.result?.executionStatus, 'Completed');
    assert.notEqual(followed.result?.runId, followed.start.runId, 'the last run of the chain answered');
    assert.deepEqual(resultOf<{ done: number; runs: number }>(t.engine, followed.result!), { done: 6, runs: 3, firstExecutionRunId: followed.start.runId });
    const first = await t.engine.client.execute({ ...poller(uniqueName('execute-first')), followRuns: false });
    assert.equal(first.result?.executionStatus, 'ContinuedAsNew');
    assert.equal(first.result?.runId, first.start.runId);
  });

  test('execute refused by conflict policy Fail answers the refusal and no result, and leaves the running run alone', async () => {
    const id = uniqueName('execute-refused');
    const running = await t.start('sleeper', 'timers', id, [300]);
    const { start, result } = await t.engine.client.execute(sleeper(id, 10, 'Fail'));
    assert.equal(start.kind, 'Error');
    assert.equal(start.failure?.code, 'WorkflowExecutionAlreadyStarted');
    assert.equal(result, undefined);
    const closed = await t.result(id);
    assert.equal(closed.runId, running);
    assert.ok(resultOf<{ sleptMs: number }>(t.engine, closed).sleptMs >= 300, 'the running run slept its 300 ms');
  });

  test('execute refuses an invalid start or wait before writing either: the workflow id stays free', async () => {
    const id = uniqueName('execute-invalid');
    await assert.rejects(t.engine.client.execute({ ...sleeper(id, 10), taskQueue: 'not a topic name' }), /taskQueue/);
    await assert.rejects(t.engine.client.execute({ ...sleeper(id, 10), timeoutMs: 2 * 60 * 60 * 1000 }), /timeoutMs/);
    const { start } = await t.engine.client.execute(sleeper(id, 10, 'Fail'));
    assert.equal(start.kind, 'StartAccepted', 'no run was started by the refused calls');
  });
}
