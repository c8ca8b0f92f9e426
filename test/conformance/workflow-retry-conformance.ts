import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { defaultHistoryConfig, type HistoryConfig } from '../../processors/history/index.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient, WorkflowClientError } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import { replayHistory } from '../../sdk/replay/replay-history.js';
import { bundleWorkflowCode } from '../../sdk/workflow/bundle.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { FlakyInput } from '../workflows/workflow-retry.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Workflow retry policies and the workflow-task rate limit end to end: client and HTTP start, engine, worker, workflow code. */

const RETRY_WORKFLOWS = fileURLToPath(new URL('../workflows/workflow-retry.ts', import.meta.url));
/** A namespace whose workflows may run only a few workflow tasks per second. */
const THROTTLED = 'throttled';
const TASKS_PER_SECOND = 4;
const history: HistoryConfig = { ...defaultHistoryConfig, namespaceLimits: { [THROTTLED]: { maxWorkflowTasksPerSecond: TASKS_PER_SECOND } } };

/** A short backoff, so a chain of attempts takes well under a second of waiting. */
const quickRetry = { initialInterval: '50ms', backoffCoefficient: 2, maximumInterval: '200ms' };

/** Registers the workflow retry tests for one backend. */
export function workflowRetryConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let address: string;
  let client: WorkflowClient;
  let throttledClient: WorkflowClient;
  const workers: Worker[] = [];
  const queue = uniqueName('retry');

  before(async () => {
    t = await startTestEngine(backend, { workers: false, engine: { history } });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
    throttledClient = new WorkflowClient({ address, namespace: THROTTLED });
    for (const namespace of ['default', THROTTLED]) {
      const worker = new Worker(t.engine.workerConnection(), { namespace, taskQueue: queue, workflowsPath: RETRY_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
      await worker.start();
      workers.push(worker);
    }
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop(1_000)));
    server.close();
    await t.stop();
  });

  /** The runs of a chain from its first run, each with its history, following the ContinuedAsNew hand-overs. */
  const chainOf = async (namespace: string, workflowId: string, firstRunId: string) => {
    const runs: HistoryEvent[][] = [];
    for (let runId: string | null = firstRunId; runId !== null; ) {
      const events = await t.engine.history(namespace, workflowId, runId);
      runs.push(events);
      const last = events.at(-1)?.attributes;
      runId = last?.type === 'WorkflowExecutionContinuedAsNew' ? last.newExecutionRunId : null;
    }
    return runs;
  };
  const startedOf = (events: HistoryEvent[]) => events[0]!.attributes as Extract<HistoryEvent['attributes'], { type: 'WorkflowExecutionStarted' }>;

  test('a failing workflow is retried as new runs until maximumAttempts; result() follows the chain and ends with the last attempt\'s failure', async () => {
    const id = uniqueName('flaky');
    const input: FlakyInput = { succeedOn: 0, failureType: 'PaymentDeclined' };
    const handle = await client.start('flaky', { workflowId: id, taskQueue: queue, args: [input], retryPolicy: { ...quickRetry, maximumAttempts: 3 } });
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'Failed');
    assert.deepEqual([outcome.failure?.code, outcome.failure?.message], ['PaymentDeclined', 'attempt 3 failed']);

    const chain = await chainOf('default', id, handle.runId!);
    assert.equal(chain.length, 3);
    assert.equal(chain.at(-1)![0]!.runId, outcome.runId);
    assert.deepEqual(chain.map((events) => events.at(-1)!.attributes.type), ['WorkflowExecutionContinuedAsNew', 'WorkflowExecutionContinuedAsNew', 'WorkflowExecutionFailed']);
    const closings = chain.slice(0, 2).map((events) => events.at(-1)!.attributes as Extract<HistoryEvent['attributes'], { type: 'WorkflowExecutionContinuedAsNew' }>);
    assert.deepEqual(closings.map((c) => [c.initiator, c.failure?.message, c.backoffStartIntervalMs]), [['Retry', 'attempt 1 failed', 50], ['Retry', 'attempt 2 failed', 100]]);
    assert.deepEqual(chain.map((events) => startedOf(events).attempt), [1, 2, 3]);
    for (const events of chain) assert.deepEqual(t.engine.dataConverter.fromPayload(startedOf(events).input[0]!), input, 'every attempt gets the same input');
    const last = chain.at(-1)!.at(-1)!.attributes;
    assert.ok(last.type === 'WorkflowExecutionFailed');
    assert.equal(last.retryState, 'MaximumAttemptsReached');
    const bundle = await bundleWorkflowCode({ workflowsPath: RETRY_WORKFLOWS });
    for (const events of chain) assert.deepEqual(replayHistory(bundle, events), { ok: true }, 'a retried run replays: its hand-over stands for the Fail command');
  });

  test('a run timeout is retried too: a run that outlives its run timeout is started again, and the chain ends at maximumAttempts', async () => {
    const id = uniqueName('hot');
    const handle = await client.start('hotLoop', {
      workflowId: id, taskQueue: queue, args: [1_000_000], workflowRunTimeout: '300ms', retryPolicy: { ...quickRetry, maximumAttempts: 2 },
    });
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'TimedOut');
    const chain = await chainOf('default', id, handle.runId!);
    assert.deepEqual(chain.map((events) => events.at(-1)!.attributes.type), ['WorkflowExecutionContinuedAsNew', 'WorkflowExecutionTimedOut']);
    const handover = chain[0]!.at(-1)!.attributes as Extract<HistoryEvent['attributes'], { type: 'WorkflowExecutionContinuedAsNew' }>;
    assert.deepEqual([handover.initiator, handover.failure?.code], ['Retry', 'TimedOut']);
    const bundle = await bundleWorkflowCode({ workflowsPath: RETRY_WORKFLOWS });
    assert.deepEqual(replayHistory(bundle, chain[0]!), { ok: true }, 'a run handed over by its timeout replays');
  });

  test('workflowInfo().attempt counts the attempts: a workflow that succeeds on attempt 3 returns 3', async () => {
    const id = uniqueName('flaky');
    const handle = await client.start('flaky', { workflowId: id, taskQueue: queue, args: [{ succeedOn: 3, failureType: 'Flaky' }], retryPolicy: quickRetry });
    const outcome = await handle.result<{ attempt: number }>('60s');
    assert.equal(outcome.status, 'Completed');
    assert.equal(outcome.result?.attempt, 3);
    assert.equal((await chainOf('default', id, handle.runId!)).length, 3);
  });

  test('a non-retryable failure, or a failure type listed in nonRetryableErrorTypes, ends the chain at once', async () => {
    const cases: { input: FlakyInput; nonRetryableErrorTypes: string[] }[] = [
      { input: { succeedOn: 0, failureType: 'InvalidOrder', nonRetryable: true }, nonRetryableErrorTypes: [] },
      { input: { succeedOn: 0, failureType: 'InvalidOrder' }, nonRetryableErrorTypes: ['InvalidOrder'] },
    ];
    for (const { input, nonRetryableErrorTypes } of cases) {
      const id = uniqueName('flaky');
      const handle = await client.start('flaky', { workflowId: id, taskQueue: queue, args: [input], retryPolicy: { ...quickRetry, nonRetryableErrorTypes } });
      const outcome = await handle.result('60s');
      assert.equal(outcome.status, 'Failed');
      assert.equal(outcome.runId, handle.runId, 'no second run');
      const closing = (await t.engine.history('default', id, handle.runId!)).at(-1)!.attributes;
      assert.ok(closing.type === 'WorkflowExecutionFailed');
      assert.equal(closing.retryState, 'NonRetryableFailure');
    }
  });

  test('HTTP start takes a retryPolicy body field, and refuses a malformed one with 400 naming the field', async () => {
    const id = uniqueName('flaky');
    const post = (body: unknown) => fetch(`${address}/api/v1/namespaces/default/workflows`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const response = await post({ workflowId: id, workflowType: 'flaky', taskQueue: queue, args: [{ succeedOn: 2, failureType: 'Flaky' }], retryPolicy: { initialInterval: '10ms', maximumAttempts: 2 } });
    assert.equal(response.status, 201);
    const outcome = await client.getHandle(id).result<{ attempt: number }>('60s');
    assert.deepEqual([outcome.status, outcome.result?.attempt], ['Completed', 2]);

    const bad = await post({ workflowId: uniqueName('flaky'), workflowType: 'flaky', taskQueue: queue, retryPolicy: { maximumAttempts: -1 } });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /retryPolicy\.maximumAttempts/);
    await assert.rejects(
      client.start('flaky', { workflowId: uniqueName('flaky'), taskQueue: queue, retryPolicy: { initialInterval: '10s', maximumInterval: '1s' } }),
      (error: unknown) => error instanceof WorkflowClientError && error.status === 400 && /maximumIntervalMs must be ≥ initialIntervalMs/.test(error.message),
    );
  });

  test('a hot workflow gets at most the namespace\'s workflow tasks per second: its tasks spread over the seconds its history shows', async () => {
    const id = uniqueName('hot');
    const steps = 3 * TASKS_PER_SECOND;
    const handle = await throttledClient.start('hotLoop', { workflowId: id, taskQueue: queue, args: [steps] });
    const outcome = await handle.result('60s');
    assert.deepEqual([outcome.status, outcome.result], ['Completed', steps]);
    const events = await t.engine.history(THROTTLED, id, handle.runId!);
    const started = events.filter((e) => e.attributes.type === 'WorkflowTaskStarted').map((e) => e.eventTime);
    assert.equal(started.length, steps + 1);
    // Tasks are counted in one-second windows, the first opening no earlier than the run's start,
    // so task i (from 0) is sent, and starts, no earlier than floor(i / limit) seconds after it.
    for (let i = TASKS_PER_SECOND; i < started.length; i += TASKS_PER_SECOND) {
      assert.ok(started[i]! - events[0]!.eventTime >= (i / TASKS_PER_SECOND) * 1000, `task ${i} started ${started[i]! - events[0]!.eventTime} ms in`);
    }
  });
}
