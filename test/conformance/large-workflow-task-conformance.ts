import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { Worker } from '../../sdk/worker/worker.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { workflowTaskCodec } from '../../topics/serde/index.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const LARGE_SIGNALS = fileURLToPath(new URL('../workflows/large-signals.ts', import.meta.url));
const BLOB_CHARS = 1_500_000;

/** The workflow tasks of a run written to the `blobs` queue's topic. */
async function workflowTasks(t: TestEngine, runId: string): Promise<WorkflowTask[]> {
  const topic = t.engine.catalog.taskTopics('default', 'blobs').workflow;
  const tasks: WorkflowTask[] = [];
  const partitions = (await t.engine.log.admin.describeTopics([topic])).get(topic)?.partitions ?? 0;
  for (let partition = 0; partition < partitions; partition++) {
    await t.engine.log.readPartition(topic, partition, 0, async (records) => {
      for (const r of records) {
        const task = await t.engine.serde.decode(workflowTaskCodec, r.value!);
        if (task.runId === runId) tasks.push(task);
      }
    });
  }
  return tasks;
}

/**
 * A workflow task whose new events do not fit in one record is sent without them: the worker
 * pages the run's history from the shard, as on any cache miss, and the run goes on. The case:
 * one 1.5 MiB signal starts a task, a claimed worker stalls, a second 1.5 MiB signal is buffered
 * behind it, the task times out and its retry carries both (3 MB). Before, that retry could not
 * be written and its timer re-encoded it in a busy loop.
 */
export function largeWorkflowTaskConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let batches = 0;
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false, engine: { onBatch: () => void batches++ } });
  });
  after(async () => t.stop());

  const worker = () => new Worker(t.engine.workerConnection(), { taskQueue: 'blobs', workflowsPath: LARGE_SIGNALS, history: engineHistoryFetcher(t.engine) });
  const pendingTask = async (id: string) => (await t.engine.describe('default', id))?.pendingWorkflowTask ?? null;

  test('a signal that the run cannot buffer within the record limit is refused with OUTPUT_TOO_LARGE, and its shard keeps running', async () => {
    const id = uniqueName('buffer');
    // No worker: the first workflow task stays in flight, so signals are buffered in the run's state.
    const runId = (await t.engine.client.start({ workflowId: id, workflowType: 'collectBlobs', taskQueue: 'blobs', args: [3] })).runId!;
    const signal = async (text: string) => {
      const body = { type: 'SignalWorkflowExecution' as const, signalName: 'blob', input: [t.engine.dataConverter.toPayload(text)], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
      return t.engine.client.send(t.engine.client.envelope('default', id, body, { runId }), { awaitReply: true, timeoutMs: 30_000 });
    };
    assert.equal((await signal('a'.repeat(BLOB_CHARS)))?.kind, 'Accepted');
    const refused = await signal('b'.repeat(BLOB_CHARS));
    assert.equal(refused?.kind, 'Error');
    assert.equal(refused?.failure?.code, 'OUTPUT_TOO_LARGE');
    assert.match(refused!.failure!.message, /over the limit/);
    const shard = t.engine.catalog.shardOf('default', id);
    assert.equal(t.engine.node.shardReports().find((r) => r.shard === shard)?.state, 'RUNNING');
    assert.equal((await t.engine.describe('default', id))?.bufferedEvents.length, 1, 'the first signal is kept');
  });

  test('a workflow task retry larger than a record (two 1.5 MiB signals) reaches the worker without its events, which pages them from the shard; the run completes and nothing spins', async () => {
    const id = uniqueName('blobs');
    const first = worker();
    await first.start();
    // Long enough that the second signal is applied before the stalled task times out, even on a busy machine.
    const reply = t.engine.client.start({ workflowId: id, workflowType: 'collectBlobs', taskQueue: 'blobs', args: [2], workflowTaskTimeout: '4s' });
    const runId = (await reply).runId!;
    await waitFor('the workflow to wait for its signals', async () => (await pendingTask(id)) === null && (await t.history(id, runId)).length >= 4);
    await first.stop(2_000);

    await t.signal(id, 'blob', ['a'.repeat(BLOB_CHARS)]);
    const task = await waitFor('the task that carries the first signal', async () => (await pendingTask(id)) ?? undefined);
    // A worker claims it and stalls: the second signal is buffered behind the claimed task.
    const claim = { type: 'WorkflowTaskStarted' as const, scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: 'stalled-worker' };
    await t.engine.client.send(t.engine.client.envelope('default', id, claim, { runId }), { awaitReply: false });
    await waitFor('the claim recorded', async () => (await pendingTask(id))?.startedTime !== null);
    // Waited for: a retry sent before it is applied would carry one signal, and fit in a record.
    const second = { type: 'SignalWorkflowExecution' as const, signalName: 'blob', input: [t.engine.dataConverter.toPayload('b'.repeat(BLOB_CHARS))], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
    await t.engine.client.send(t.engine.client.envelope('default', id, second), { awaitReply: true });
    await waitFor('the stalled task to time out and be retried', async () => ((await pendingTask(id))?.attempt ?? 0) >= 2, 30_000);

    const before = batches;
    const next = worker();
    await next.start();
    try {
      const result = await t.result(id, 60_000);
      assert.equal(result.executionStatus, 'Completed', result.failure?.message);
      assert.deepEqual(resultOf<number[]>(t.engine, result), [BLOB_CHARS, BLOB_CHARS]);
      assert.ok(batches - before < 100, `the shard did not spin: ${batches - before} batches`);
      const events = await t.history(id, runId);
      events.forEach((e, i) => assert.equal(e.eventId, i + 1));
      const retries = (await workflowTasks(t, runId)).filter((task) => task.attempt >= 2);
      assert.ok(retries.length > 0 && retries.every((task) => task.events.length === 0), 'the retry was sent without its events');
    } finally {
      await next.stop(2_000);
    }
  });
}
