import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { WorkflowClient, type WorkflowClientError, type WorkflowHandle } from '../../sdk/client/workflow-client.js';
import { CancelledFailure } from '../../sdk/workflow/errors.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { CancellationActivityBench } from './cancellation-activities.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * Cancellation end to end on one backend, with 8 shards: a cancelled workflow's running activity
 * is told through the control topic, each activity cancellation type, scope timeouts, cancelled
 * timers, the __stack_trace query, non-retryable failures, heartbeat resumption and the payload limit.
 */

const CANCELLATION_WORKFLOWS = fileURLToPath(new URL('../workflows/cancellation.ts', import.meta.url));
const SHARDS = 8;
const ACTIVITY_CANCELLED = 'cancelled (ActivityFailure caused by CancelledFailure)';
const MiB = 1024 * 1024;

/** Registers the cancellation tests for one backend. */
export function cancellationConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let client: WorkflowClient;
  let address: string;
  const bench = new CancellationActivityBench();
  const queue = uniqueName('cancellation');

  before(async () => {
    t = await startTestEngine(backend, {
      workers: false, shards: SHARDS,
      extraWorkers: [{ taskQueue: queue, workflowsPath: CANCELLATION_WORKFLOWS, activities: { ...bench.activities } }],
    });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
  });
  after(async () => {
    for (const gate of bench.gates.values()) gate.release.resolve();
    server.close();
    await t.stop();
  });

  const start = (workflowType: string, workflowId: string, ...args: unknown[]) => client.start(workflowType, { workflowId, taskQueue: queue, args });
  const types = async (handle: WorkflowHandle) => (await handle.fetchHistory()).map((e) => e.attributes.type);
  const resultOf = async (handle: WorkflowHandle) => (await handle.result<string>('60s')).result;

  test('cancelling a workflow through the client fires its running activity\'s AbortSignal; the activity is reported canceled, cleanup runs in a non-cancellable scope and the run ends Canceled', async () => {
    const key = uniqueName('run-cancel');
    const handle = await start('cleansUpWhenCancelled', key, key);
    await bench.gate(key).started.promise;
    await handle.cancel('the customer gave up');
    const reason = await bench.gate(key).aborted.promise;
    assert.ok(reason instanceof CancelledFailure, `the abort reason is a CancelledFailure, got ${String(reason)}`);
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'Canceled');
    assert.deepEqual(bench.cleanedUp.filter((k) => k === key), [key]);
    const history = await types(handle);
    const order = ['WorkflowExecutionCancelRequested', 'ActivityTaskCancelRequested', 'ActivityTaskCanceled', 'ActivityTaskCompleted', 'WorkflowExecutionCanceled'];
    const positions = order.map((type) => history.indexOf(type));
    assert.ok(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!)), `${order.join(' < ')} in ${history.join()}`);
  });

  test('TRY_CANCEL: the workflow goes on at once while the cancelled activity still runs; __stack_trace showed the activity it waited on', async () => {
    const key = uniqueName('hold-try');
    const handle = await start('cancelActivityOnSignal', key, key, 'TRY_CANCEL');
    await bench.gate(key).started.promise;
    const stack = await handle.query<string>('__stack_trace');
    assert.match(stack, /waits on:\n {2}activity blockUntilCancelled \(activityId 1\)/);
    await handle.signal('cancelScope');
    // The activity is held after its abort: only a workflow that does not wait can complete.
    assert.equal(await resultOf(handle), ACTIVITY_CANCELLED);
    assert.ok(await bench.gate(key).aborted.promise instanceof CancelledFailure);
    assert.ok((await types(handle)).includes('ActivityTaskCancelRequested'));
    bench.gate(key).release.resolve();
  });

  test('WAIT_CANCELLATION_COMPLETED: the workflow waits until the worker reports the activity canceled', async () => {
    const key = uniqueName('hold-wait');
    const handle = await start('cancelActivityOnSignal', key, key, 'WAIT_CANCELLATION_COMPLETED');
    await bench.gate(key).started.promise;
    await handle.signal('cancelScope');
    await bench.gate(key).aborted.promise;
    const whileHeld = await types(handle);
    assert.ok(whileHeld.includes('ActivityTaskCancelRequested'), whileHeld.join());
    assert.ok(!whileHeld.includes('WorkflowExecutionCompleted'), 'the run is still waiting while the activity runs');
    bench.gate(key).release.resolve();
    assert.equal(await resultOf(handle), ACTIVITY_CANCELLED);
    const history = await types(handle);
    const canceledAt = history.indexOf('ActivityTaskCanceled');
    assert.ok(canceledAt >= 0 && canceledAt < history.indexOf('WorkflowExecutionCompleted'), `the cancellation was recorded before the run completed: ${history.join()}`);
  });

  test('ABANDON: no cancellation is requested and the workflow goes on while the activity runs', async () => {
    const key = uniqueName('hold-abandon');
    const handle = await start('cancelActivityOnSignal', key, key, 'ABANDON');
    await bench.gate(key).started.promise;
    await handle.signal('cancelScope');
    assert.equal(await resultOf(handle), ACTIVITY_CANCELLED);
    assert.ok(!(await types(handle)).includes('ActivityTaskCancelRequested'));
    bench.gate(key).release.resolve();
  });

  test('CancellationScope.withTimeout cancels the running activity when its timer fires', async () => {
    const key = uniqueName('timeout');
    const handle = await start('activityWithin', key, key, '1s', 'withTimeout');
    assert.equal(await resultOf(handle), ACTIVITY_CANCELLED);
    assert.ok(await bench.gate(key).aborted.promise instanceof CancelledFailure);
    const history = await types(handle);
    assert.ok(history.indexOf('TimerFired') < history.indexOf('ActivityTaskCancelRequested'), history.join());
  });

  test('a sleep in a cancelled scope is cancelled: TimerCanceled, and the workflow sees a CancelledFailure', async () => {
    const handle = await start('cancellableSleep', uniqueName('sleep'));
    await waitFor('the timer to start', async () => (await types(handle)).includes('TimerStarted'));
    await handle.signal('cancelScope');
    assert.equal(await resultOf(handle), 'cancelled (CancelledFailure)');
    assert.ok((await types(handle)).includes('TimerCanceled'));
  });

  test('a non-retryable ApplicationFailure, or a failure whose type the retry policy lists, ends the activity after one attempt', async () => {
    for (const how of ['flag', 'type'] as const) {
      const key = uniqueName(`non-retryable-${how}`);
      const handle = await start('nonRetryable', key, key, how);
      assert.equal(await resultOf(handle), `NonRetryableFailure: Declined: declined ${key}`, how);
      assert.equal(bench.gate(key).calls, 1, `${how}: one attempt`);
    }
  });

  test('an attempt that fails half-way is resumed by the next from its last heartbeat details', async () => {
    const key = uniqueName('resume');
    const handle = await start('heartbeatResume', key, key, 6);
    assert.deepEqual(await resultOf(handle), [4, 5, 6]);
    assert.deepEqual(bench.resumedFrom.get(key), [undefined, 3]);
  });

  test('payload limit: a start or signal with an argument over 2 MiB is refused with 400, a body over the parser limit with 413', async () => {
    const big = 'x'.repeat(2 * MiB + 10);
    await assert.rejects(start('cancellableSleep', uniqueName('big-start'), big), (err: WorkflowClientError) => {
      assert.equal(err.status, 400);
      assert.equal(err.code, 'InvalidArgument');
      assert.match(err.message, /payload input\[0\] is \d+ bytes, over the limit of 2097152 bytes per payload/);
      return true;
    });
    const handle = await start('cancellableSleep', uniqueName('big-signal'));
    await assert.rejects(handle.signal('cancelScope', big), (err: WorkflowClientError) => err.status === 400 && /over the limit of 2097152 bytes/.test(err.message));
    const response = await fetch(`${address}/api/v1/namespaces/default/workflows`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowId: uniqueName('huge'), workflowType: 'cancellableSleep', taskQueue: queue, args: ['x'.repeat(4 * MiB)] }),
    });
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { code: string }).code, 'PayloadTooLarge');
    await handle.signal('cancelScope');
  });

  test('payload limit: a workflow completing with a result over 2 MiB fails its task with BadCompleteWorkflowExecutionAttributes and is terminated', async () => {
    const handle = await start('returnsLarge', uniqueName('big-result'), 2 * MiB + 100);
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'Terminated');
    const history = await handle.fetchHistory();
    const failed = history.find((e) => e.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed?.attributes.cause, 'BadCompleteWorkflowExecutionAttributes');
    assert.match(String((history.at(-1)?.attributes as { reason?: string }).reason), /CompleteWorkflowExecution command: payload result is \d+ bytes, over the limit of 2097152 bytes/);
  });

  test('payload limit: a completion too large to send at all (over the record limit) terminates the run with cause PayloadTooLarge', async () => {
    const handle = await start('returnsLarge', uniqueName('huge-result'), 3 * MiB);
    const outcome = await handle.result('60s');
    assert.equal(outcome.status, 'Terminated');
    const failed = (await handle.fetchHistory()).find((e) => e.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed?.attributes.cause, 'PayloadTooLarge');
  });

  test('payload limit: an activity result over 2 MiB, or too large to send, fails the activity without a retry', async () => {
    const expected: Array<[number, RegExp]> = [
      [2 * MiB + 100, /^NonRetryableFailure: PayloadTooLarge: the activity result: payload result is \d+ bytes, over the limit of 2097152 bytes per payload$/],
      [3 * MiB, /^NonRetryableFailure: PayloadTooLarge: the result of activity returnLarge \(id 1\) is too large to send: .* payloads may be at most 2 MiB$/],
    ];
    for (const [bytes, message] of expected) {
      const handle = await start('largeActivityResult', uniqueName('big-activity'), bytes);
      assert.match(String(await resultOf(handle)), message, `${bytes} bytes`);
    }
  });
}
