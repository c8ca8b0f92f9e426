import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { LogRecord } from '../../topics/log/log.js';
import { Worker } from '../../sdk/worker/worker.js';
import type { ActivityEvent } from '../../sdk/worker/activity-worker.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const BENCH_WORKFLOWS = fileURLToPath(new URL('../bench/workflows/index.ts', import.meta.url));
const QUEUE = 'redelivery';

/**
 * A task whose result was recorded, but whose position its worker had not committed when it died,
 * comes back to the next worker of the queue; it must not run again.
 */
export function activityRedelivery(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false });
  });
  after(async () => t.stop());

  /** A worker of the queue whose `step` activity records every execution. */
  async function countingWorker(executions: string[], events: ActivityEvent[]): Promise<Worker> {
    const worker = new Worker(t.engine.workerConnection(), {
      taskQueue: QUEUE,
      workflowsPath: BENCH_WORKFLOWS,
      activities: { step: async (payload: string) => (executions.push(payload), payload) },
      history: engineHistoryFetcher(t.engine),
      onActivity: (event) => events.push(event),
    });
    await worker.start();
    return worker;
  }

  test('activity tasks delivered again after their results were recorded are not run again: the engine refuses their claims', async () => {
    const executions: string[] = [];
    const first = await countingWorker(executions, []);
    const id = uniqueName('redelivered');
    await t.start('threeSteps', QUEUE, id, ['payload']);
    const result = await t.result(id);
    assert.equal(result.executionStatus, 'Completed');
    assert.equal(executions.length, 3);
    await first.stop(2_000);

    // Play the crash: the three tasks come back as if their positions had never been committed.
    const { log, catalog } = t.engine.workerConnection();
    const topic = catalog.taskTopics('default', QUEUE).activity;
    const tasks: LogRecord[] = [];
    const partitions = (await log.admin.describeTopics([topic])).get(topic)!.partitions;
    for (let partition = 0; partition < partitions; partition++) {
      await log.readPartition(topic, partition, 0, (records) => void tasks.push(...records.filter((r) => r.value?.length)));
    }
    assert.equal(tasks.length, 3, 'the workflow wrote three activity tasks');
    const producer = await log.producer();
    await producer.send(tasks.map((r) => ({ topic, partition: r.partition, key: r.key, value: r.value, headers: r.headers })));

    const events: ActivityEvent[] = [];
    const second = await countingWorker(executions, events);
    try {
      await waitFor('the redelivered tasks to be handled', () => events.length >= 3, 60_000);
      assert.deepEqual(events.map((e) => e.outcome), ['superseded', 'superseded', 'superseded']);
      assert.equal(executions.length, 3, 'no activity ran a second time');
    } finally {
      await second.stop(2_000);
    }
  });
}
