import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { WorkflowClient } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Cron workflows end to end: client and HTTP start, engine, worker, workflow code reading the last result. */

const CRON_WORKFLOWS = fileURLToPath(new URL('../workflows/workflow-retry.ts', import.meta.url));
/** Every second (the 6-field form with leading seconds), so a chain of runs takes seconds. */
const EVERY_SECOND = '* * * * * *';

type ContinuedAsNew = Extract<HistoryEvent['attributes'], { type: 'WorkflowExecutionContinuedAsNew' }>;
type Started = Extract<HistoryEvent['attributes'], { type: 'WorkflowExecutionStarted' }>;

/** Registers the cron workflow tests for one backend. */
export function cronWorkflowsConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let address: string;
  let client: WorkflowClient;
  let worker: Worker;
  const queue = uniqueName('cron');

  before(async () => {
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    address = addressOf(server);
    client = new WorkflowClient({ address });
    worker = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: CRON_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await worker.start();
  });
  after(async () => {
    await worker.stop(1_000);
    server.close();
    await t.stop();
  });

  /** The first `count` closed runs of a cron chain, each with its history. */
  const closedRuns = (workflowId: string, firstRunId: string, count: number) =>
    waitFor(`${count} closed cron runs of ${workflowId}`, async () => {
      const runs: HistoryEvent[][] = [];
      for (let runId: string | null = firstRunId; runId !== null && runs.length < count; ) {
        const events = await t.engine.history('default', workflowId, runId);
        const last = events.at(-1)?.attributes;
        if (last?.type !== 'WorkflowExecutionContinuedAsNew') return undefined;
        runs.push(events);
        runId = last.newExecutionRunId;
      }
      return runs;
    }, 60_000);

  test('a cron workflow runs at each cron time, each run reading the last run\'s result; terminate ends the chain', async () => {
    const id = uniqueName('cron');
    const handle = await client.start('cronCounter', { workflowId: id, taskQueue: queue, cronSchedule: EVERY_SECOND });
    const runs = await closedRuns(id, handle.runId!, 3);
    await client.getHandle(id).terminate('enough');

    const first = runs[0]![0]!.attributes as Started;
    assert.equal(first.cronSchedule, EVERY_SECOND);
    assert.ok(first.firstWorkflowTaskBackoffMs !== null && first.firstWorkflowTaskBackoffMs > 0 && first.firstWorkflowTaskBackoffMs <= 1000, `first backoff ${first.firstWorkflowTaskBackoffMs}`);
    const results = runs.map((events) => {
      const closing = events.at(-1)!.attributes as ContinuedAsNew;
      assert.equal(closing.initiator, 'CronSchedule');
      return t.engine.dataConverter.fromPayload<{ count: number }>(closing.lastCompletionResult!).count;
    });
    assert.deepEqual(results, [1, 2, 3]);
    for (const [i, events] of runs.entries()) {
      const started = events[0]!.attributes as Started;
      assert.equal(started.initiator, i === 0 ? null : 'CronSchedule');
      assert.equal(started.attempt, 1);
      // Each run's first task waits for its backoff to the cron time.
      const scheduled = events.find((e) => e.attributes.type === 'WorkflowTaskScheduled')!;
      assert.ok(scheduled.eventTime >= events[0]!.eventTime + (started.firstWorkflowTaskBackoffMs ?? 0));
    }
    const final = await client.getHandle(id).result('30s');
    assert.equal(final.status, 'Terminated');
  });

  test('HTTP start takes a cronSchedule body field; an invalid one is refused with 400 naming the field at fault', async () => {
    const post = (body: unknown) => fetch(`${address}/api/v1/namespaces/default/workflows`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const id = uniqueName('cron');
    const response = await post({ workflowId: id, workflowType: 'cronCounter', taskQueue: queue, cronSchedule: EVERY_SECOND });
    assert.equal(response.status, 201);
    const { runId } = (await response.json()) as { runId: string };
    const [run] = await closedRuns(id, runId, 1);
    assert.equal((run!.at(-1)!.attributes as ContinuedAsNew).initiator, 'CronSchedule');
    await client.getHandle(id).terminate('enough');

    const bad = await post({ workflowId: uniqueName('cron'), workflowType: 'cronCounter', taskQueue: queue, cronSchedule: '0 25 * * *' });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /cronSchedule: invalid cron expression: hour: 25 is out of range/);
    const badZone = await post({ workflowId: uniqueName('cron'), workflowType: 'cronCounter', taskQueue: queue, cronSchedule: 'CRON_TZ=Nowhere/Land 0 9 * * *' });
    assert.equal(badZone.status, 400);
    assert.match(((await badZone.json()) as { message: string }).message, /cronSchedule: invalid cron expression: time zone: unknown time zone "Nowhere\/Land"/);
  });

  test('a cron schedule with a CRON_TZ= time zone runs in that zone: the first run waits for 00:00 in Tokyo (15:00 UTC)', async () => {
    const id = uniqueName('cron-tz');
    const handle = await client.start('cronCounter', { workflowId: id, taskQueue: queue, cronSchedule: 'CRON_TZ=Asia/Tokyo 0 0 * * *' });
    const description = (await handle.describe()) as { executionInfo: { startTime: number; executionTime: number } };
    await client.getHandle(id).terminate('enough');
    const { startTime, executionTime } = description.executionInfo;
    const firstRun = new Date(executionTime);
    assert.equal(firstRun.getUTCHours(), 15, `first run at ${firstRun.toISOString()}`);
    assert.equal(firstRun.getUTCMinutes(), 0);
    assert.ok(executionTime > startTime && executionTime - startTime <= 86_400_000);
  });
}
