import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { UNCLAIMED_CANCEL_IDENTITY } from '../../processors/history/activity-lifecycle.js';
import { defaultHistoryConfig } from '../../processors/history/config.js';
import { CommandWriter } from '../../sdk/worker/worker-connection.js';
import { Worker } from '../../sdk/worker/worker.js';
import type { ActivityControl } from '../../topics/schemas/activity-control/index.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import { activityControlCodec, activityTaskCodec, type RecordCodec } from '../../topics/serde/index.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const CANCELLATION_WORKFLOWS = fileURLToPath(new URL('../workflows/cancellation.ts', import.meta.url));
/** Long enough for the test to read the control topic and answer on a loaded machine. */
const GRACE_MS = 5_000;

/**
 * Cancelling an activity whose attempt was dispatched but not claimed: SDK workers claim an attempt
 * only once it has run for a moment, so the engine cannot take "unclaimed" for "not running". The
 * test plays that worker on the Kafka task protocol: it takes the task and never claims it.
 */
export function unclaimedCancelConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const queue = uniqueName('unclaimed');
  before(async () => {
    t = await startTestEngine(backend, { workers: false, shards: 2, engine: { history: { ...defaultHistoryConfig, unclaimedActivityCancelGraceMs: GRACE_MS } } });
    // Workflows only: the queue's activity tasks are the test's.
    const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: CANCELLATION_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    t.workers.push(worker);
    await worker.start();
  });
  after(() => t.stop());

  /** The first record of `topic` (any partition) that decodes with `codec` and satisfies `wanted`. */
  async function awaitRecord<T>(topic: string, codec: RecordCodec<T>, wanted: (value: T) => boolean): Promise<T> {
    const { log, serde } = t.engine.workerConnection();
    const partitions = (await log.admin.describeTopics([topic])).get(topic)?.partitions ?? 1;
    let found: T | undefined;
    await waitFor(`a matching record on ${topic}`, async () => {
      for (let p = 0; p < partitions && found === undefined; p++) {
        await log.readPartition(topic, p, 0, async (records) => {
          for (const r of records) {
            const value = r.value && (await serde.decode(codec, r.value));
            if (value && found === undefined && wanted(value)) found = value;
          }
        });
      }
      return found !== undefined;
    }, 30_000);
    return found!;
  }

  /** Starts a run that waits for its activity's cancellation to complete; answers the task it took (never claimed) and the run. */
  async function startAndCancelUnclaimed(): Promise<{ workflowId: string; runId: string; task: ActivityTask }> {
    const workflowId = uniqueName('unclaimed-cancel');
    const runId = await t.start('cancelActivityOnSignal', queue, workflowId, [workflowId, 'WAIT_CANCELLATION_COMPLETED']);
    const topics = t.engine.catalog.taskTopics('default', queue);
    const task = await awaitRecord<ActivityTask>(topics.activity, activityTaskCodec, (v) => v.workflowId === workflowId);
    await t.signal(workflowId, 'cancelScope', []);
    const control = await awaitRecord<ActivityControl>(topics.control, activityControlCodec, (v) => v.workflowId === workflowId);
    assert.deepEqual([control.runId, control.scheduledEventId], [runId, task.scheduledEventId], 'the worker that may run the unclaimed attempt is told to stop');
    return { workflowId, runId, task };
  }

  const types = async (workflowId: string, runId: string) => (await t.history(workflowId, runId)).map((e) => e.attributes.type);

  test('a worker holding an unclaimed activity task is told of its cancellation on the control topic, and a workflow waiting for the cancellation waits for that worker\'s answer', async () => {
    const writer = new CommandWriter(t.engine.workerConnection());
    const { workflowId, runId, task } = await startAndCancelUnclaimed();
    const waiting = await types(workflowId, runId);
    assert.ok(waiting.includes('ActivityTaskCancelRequested') && !waiting.includes('ActivityTaskCanceled'), `the engine waits for the worker: ${waiting.join()}`);
    await writer.write({ namespace: 'default', workflowId, runId }, { type: 'ActivityTaskCanceled', scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: 'test-worker', details: null });
    const result = await t.result(workflowId);
    assert.equal(result.executionStatus, 'Completed');
    const events = await t.history(workflowId, runId);
    const canceled = events.find((e) => e.attributes.type === 'ActivityTaskCanceled')!.attributes;
    assert.ok(canceled.type === 'ActivityTaskCanceled' && canceled.identity === 'test-worker', 'closed by the worker\'s answer');
    const order: string[] = events.map((e) => e.attributes.type);
    const [started, closed, completed] = ['ActivityTaskStarted', 'ActivityTaskCanceled', 'WorkflowExecutionCompleted'].map((type) => order.indexOf(type));
    assert.ok(started! >= 0 && started! < closed! && closed! < completed!, `the answer implied the claim, and the run completed after it: ${order.join()}`);
  });

  test('an unclaimed activity asked to cancel that no worker claims or answers is cancelled by the engine after its grace', async () => {
    const { workflowId, runId } = await startAndCancelUnclaimed();
    const result = await t.result(workflowId, 60_000);
    assert.equal(result.executionStatus, 'Completed');
    const events = await t.history(workflowId, runId);
    const requested = events.find((e) => e.attributes.type === 'ActivityTaskCancelRequested')!;
    const canceled = events.find((e) => e.attributes.type === 'ActivityTaskCanceled')!;
    assert.ok(canceled.attributes.type === 'ActivityTaskCanceled');
    assert.deepEqual([canceled.attributes.identity, canceled.attributes.startedEventId], [UNCLAIMED_CANCEL_IDENTITY, null]);
    assert.ok(canceled.eventTime - requested.eventTime >= GRACE_MS, `cancelled ${canceled.eventTime - requested.eventTime} ms after the request, not before the grace of ${GRACE_MS} ms`);
    assert.ok(!(await types(workflowId, runId)).includes('ActivityTaskStarted'), 'nobody claimed it');
  });
}
