import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { startScheduleWorker } from '../../gateway/schedules/schedule-worker.js';
import { ScheduleClient } from '../../sdk/client/schedule-client.js';
import { WorkflowClient } from '../../sdk/client/workflow-client.js';
import { Worker } from '../../sdk/worker/worker.js';
import { startTestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

const SCHEDULED_WORKFLOWS = fileURLToPath(new URL('../workflows/scheduled.ts', import.meta.url));

/** An engine node on the test broker with the scheduler worker, a worker for the scheduled workflow and a gateway. */
async function startNode(prefix: string, queue: string) {
  const t = await startTestEngine('kafka', { workers: false, prefix });
  const server: Server = await serveGateway(t.engine);
  const address = addressOf(server);
  const target = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: SCHEDULED_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
  await target.start();
  const workers = [target, await startScheduleWorker(t.engine)];
  return {
    schedules: new ScheduleClient({ address }),
    workflows: new WorkflowClient({ address }),
    async stop() {
      await Promise.all(workers.map((w) => w.stop(1_000)));
      server.close();
      await t.stop();
    },
  };
}

test('a schedule survives an engine restart on Kafka: the new node, with no local state, carries on and takes the actions missed while it was down', async () => {
  const prefix = uniqueName('sched').replaceAll('-', '_');
  const queue = uniqueName('scheduled');
  const scheduleId = uniqueName('survivor');
  const first = await startNode(prefix, queue);
  let before: number;
  try {
    const handle = await first.schedules.create({
      scheduleId,
      spec: { intervals: [{ every: '1s' }] },
      action: { workflowType: 'scheduledTask', taskQueue: queue, args: ['survivor', false] },
      policies: { overlap: 'ALLOW_ALL' },
    });
    before = (await waitFor('two actions', async () => {
      const d = await handle.describe();
      return d.info.numActions >= 2 ? d : undefined;
    })).info.numActions;
  } finally {
    await first.stop();
  }
  const downAt = Date.now();
  await new Promise((r) => setTimeout(r, 2_000));
  const second = await startNode(prefix, queue);
  const upAt = Date.now();
  try {
    const handle = second.schedules.getHandle(scheduleId);
    const described = await waitFor('actions after the restart', async () => {
      const d = await handle.describe();
      if (d.info.numActions >= before + 4) return d;
      await new Promise((r) => setTimeout(r, 250));
      return undefined;
    }, 60_000);
    await handle.delete();
    // Every second from the first action on has its run, the seconds the engine was down included.
    const times: number[] = [];
    for await (const run of second.workflows.list({ query: `TemporalScheduledById = '${scheduleId}'` })) {
      // Listed datetimes are RFC 3339 strings.
      times.push(Date.parse(String(run.searchAttributes.TemporalScheduledStartTime!.value)));
    }
    times.sort((a, b) => a - b);
    assert.ok(times.length >= described.info.numActions - 1, `${times.length} runs listed for ${described.info.numActions} actions`);
    for (let i = 1; i < times.length; i++) assert.equal(times[i]! - times[i - 1]!, 1000, `no gap at ${new Date(times[i]!).toISOString()}`);
    assert.ok(times.some((time) => time > downAt && time < upAt), 'runs for the seconds the engine was down');
  } finally {
    await second.stop();
  }
});
