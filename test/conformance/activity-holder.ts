import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import type { ActivityEvent } from '../../sdk/worker/activity-worker.js';
import { Worker } from '../../sdk/worker/worker.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const GATED_WORKFLOWS = fileURLToPath(new URL('../workflows/gated-activity.ts', import.meta.url));

/**
 * One activity attempt has one holder: a task that comes back to another worker after a rebalance
 * while the first worker is still running it is not run a second time beside it.
 */
export function activityHolder(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false });
  });
  after(async () => t.stop());

  test('an activity task redelivered while another worker runs its attempt is not run beside it: the engine refuses the second claim', async () => {
    const queue = uniqueName('holder');
    const executions: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    // The attempt ignores the abort of its worker's shutdown and goes on until the gate opens.
    const activities = { passGate: async (name: string) => (executions.push(name), await gate, name) };
    const workerOf = (events: ActivityEvent[] = []) =>
      new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: GATED_WORKFLOWS, activities, history: engineHistoryFetcher(t.engine), onActivity: (e) => events.push(e) });

    const first = workerOf();
    await first.start();
    const id = uniqueName('held');
    await t.start('gatedStep', queue, id, ['once']);
    await waitFor('the first worker to run the attempt', () => executions.length === 1, 30_000);
    await waitFor('its claim to be recorded', async () => (await t.engine.describe('default', id))?.pendingActivities[0]?.startedTime != null, 30_000);
    // The first worker leaves the group with the attempt still running: its task was never
    // finished, so its position was not committed past it and the task goes to the next member.
    await first.stop(500);

    const events: ActivityEvent[] = [];
    const second = workerOf(events);
    await second.start();
    try {
      await waitFor('the redelivered task to be handled', () => events.length > 0 || executions.length > 1, 60_000);
      assert.deepEqual(events.map((e) => e.outcome), ['superseded'], 'the second worker did not run the attempt');
      assert.deepEqual(executions, ['once']);
      openGate();
      const result = await t.result(id, 30_000);
      assert.equal(result.executionStatus, 'Completed', 'the holder finished the attempt and the run completed');
      assert.deepEqual(executions, ['once'], 'the activity ran once');
    } finally {
      openGate();
      await second.stop(2_000);
    }
  });
}
