import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { localActivityOf, LOCAL_ACTIVITY_MARKER_NAME, type LocalActivityOutcome } from '../../sdk/replay/local-activity-markers.js';
import { Worker } from '../../sdk/worker/worker.js';
import { ApplicationFailure } from '../../sdk/workflow/errors.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import type { LocalActivities } from '../workflows/local-activities.js';

/**
 * Local activities end to end on one backend: run by the workflow worker during the workflow task,
 * retried there, recorded as `sdk.local-activity` markers, never run again on replay (a new worker
 * replays the run), long backoffs as durable timers, failures and timeouts as ActivityFailure.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/local-activities.ts', import.meta.url));

/** Registers the local-activity tests for one backend. */
export function localActivitiesConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const calls = new Map<string, number>();
  const count = (key: string): number => {
    const n = (calls.get(key) ?? 0) + 1;
    calls.set(key, n);
    return n;
  };
  const activities: { [K in keyof LocalActivities]: LocalActivities[K] } = {
    lookupPrice: async (sku) => {
      if (count(`lookupPrice:${sku}`) <= 2) throw new Error('price service busy');
      return 42;
    },
    flaky: async (label) => {
      if (count(`flaky:${label}`) === 1) throw new Error('first attempt fails');
      return `${label} done`;
    },
    reject: async () => {
      count('reject');
      throw ApplicationFailure.nonRetryable('bad input', 'InvalidInput');
    },
    slow: async (ms) => {
      count('slow');
      await new Promise((r) => setTimeout(r, ms));
      return 'late';
    },
    overBudget: async (ms) => {
      count('overBudget');
      await new Promise((r) => setTimeout(r, ms));
      return 'late';
    },
  };

  before(async () => {
    t = await startTestEngine(backend, { workers: false });
  });
  after(async () => t.stop());

  const deploy = async (queue: string): Promise<Worker> => {
    const worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: WORKFLOWS, activities, history: engineHistoryFetcher(t.engine) });
    await worker.start();
    return worker;
  };
  const markers = (events: HistoryEvent[]): LocalActivityOutcome[] =>
    events.flatMap((e) => (e.attributes.type === 'MarkerRecorded' && e.attributes.markerName === LOCAL_ACTIVITY_MARKER_NAME ? [localActivityOf(e.attributes.markerName, e.attributes.details, e.attributes.failure)!] : []));
  const start = async (workflowType: string, queue: string, args: unknown[], workflowTaskTimeout?: string): Promise<{ id: string; runId: string }> => {
    const id = uniqueName(workflowType);
    const reply = await t.engine.client.start({ workflowId: id, workflowType, taskQueue: queue, args, ...(workflowTaskTimeout ? { workflowTaskTimeout } : {}) });
    assert.equal(reply.kind, 'StartAccepted');
    return { id, runId: reply.runId! };
  };

  test('a local activity runs in the workflow worker with its retries, is recorded as one marker, and a new worker replaying the run does not run it again', async () => {
    const queue = uniqueName('local');
    const first = await deploy(queue);
    const { id, runId } = await start('localPrice', queue, ['sku-1']);
    const recorded = await waitFor('the local activity marker', async () => markers(await t.history(id, runId))[0], 60_000);
    await first.stop(1_000);
    assert.equal(recorded.kind, 'completed');
    assert.equal(recorded.attempt, 3, 'two failed attempts retried within the task');
    assert.equal(recorded.activityType, 'lookupPrice');

    const second = await deploy(queue);
    try {
      await t.signal(id, 'go', []);
      assert.equal(resultOf<number>(t.engine, await t.result(id, 120_000)), 42);
    } finally {
      await second.stop(1_000);
    }
    assert.equal(calls.get('lookupPrice:sku-1'), 3, 'the replaying worker took the result from the marker');
    const events = await t.history(id, runId);
    assert.equal(events.filter((e) => e.attributes.type === 'ActivityTaskScheduled').length, 0, 'no activity task was scheduled');
    assert.equal(markers(events).length, 1);
  });

  test('a retry whose backoff exceeds the workflow task\'s budget waits on a durable timer and runs in a later task', async () => {
    const queue = uniqueName('local-backoff');
    const worker = await deploy(queue);
    try {
      const { id, runId } = await start('localBackoff', queue, ['job-1'], '2s');
      assert.equal(resultOf<string>(t.engine, await t.result(id, 120_000)), 'job-1 done');
      const events = await t.history(id, runId);
      const outcomes = markers(events);
      assert.deepEqual(outcomes.map((o) => [o.kind, o.attempt]), [['backoff', 1], ['completed', 2]]);
      assert.equal(outcomes[0]!.kind === 'backoff' && outcomes[0]!.backoffMs, 2_000);
      const timer = events.find((e) => e.attributes.type === 'TimerStarted');
      assert.equal(timer?.attributes.type === 'TimerStarted' && timer.attributes.startToFireTimeoutMs, 2_000);
      assert.ok(events.some((e) => e.attributes.type === 'TimerFired'));
      assert.equal(calls.get('flaky:job-1'), 2);
    } finally {
      await worker.stop(1_000);
    }
  });

  test('a non-retryable failure and a start-to-close timeout reach the workflow as ActivityFailure with the cause and retry state', async () => {
    const queue = uniqueName('local-failures');
    const worker = await deploy(queue);
    try {
      const { id, runId } = await start('localFailures', queue, []);
      assert.deepEqual(resultOf<string[]>(t.engine, await t.result(id, 120_000)), ['InvalidInput NonRetryableFailure', 'TimeoutFailure MaximumAttemptsReached']);
      assert.equal(calls.get('reject'), 1);
      assert.equal(calls.get('slow'), 2);
      assert.deepEqual(markers(await t.history(id, runId)).map((o) => [o.kind, o.attempt]), [['failed', 1], ['failed', 2]]);
    } finally {
      await worker.stop(1_000);
    }
  });

  test('a local activity running past the workflow task\'s budget is cut there, so the workflow task never times out', async () => {
    const queue = uniqueName('local-budget');
    const worker = await deploy(queue);
    try {
      const { id, runId } = await start('localOverBudget', queue, [], '2s');
      assert.equal(resultOf<string>(t.engine, await t.result(id, 120_000)), 'TimeoutFailure MaximumAttemptsReached');
      const events = await t.history(id, runId);
      assert.equal(events.filter((e) => e.attributes.type === 'WorkflowTaskTimedOut').length, 0);
      assert.deepEqual(markers(events).map((o) => [o.kind, o.attempt]), [['backoff', 1], ['failed', 2]], 'attempt 2 ran in a later task, after a timer');
      assert.equal(calls.get('overBudget'), 2);
    } finally {
      await worker.stop(1_000);
    }
  });
}
