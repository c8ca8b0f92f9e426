import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import express from 'express';
import { jsonBody } from './json-body.js';
import { errorHandler } from './http-errors.js';
import { workerReportRoutes } from './worker-report-routes.js';
import type { WorkerReport } from '../topics/wire/worker-report.js';

async function withApp(run: (post: (body: unknown) => Promise<{ status: number; json: { message?: string; accepted?: number } }>, received: WorkerReport[]) => Promise<void>): Promise<void> {
  const received: WorkerReport[] = [];
  const app = express();
  app.use(jsonBody());
  app.use(workerReportRoutes((r) => received.push(r)));
  app.use(errorHandler);
  const server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    await run(async (body) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/worker-reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: (await response.json()) as { message?: string; accepted?: number } };
    }, received);
  } finally {
    server.close();
  }
}

const good = { identity: '1@host', namespace: 'default', taskQueue: 'orders', workflowTasks: [{ cacheHit: true, replayMs: 1.5, result: 'completed' }], activities: [{ activityType: 'chargeCard', attempt: 2, durationMs: 30, scheduleToStartMs: 4, outcome: 'completed' }] };

test('a worker report is taken and passed on sample by sample', async () => {
  await withApp(async (post, received) => {
    assert.deepEqual(await post(good), { status: 202, json: { accepted: 2 } });
    assert.deepEqual(received, [good]);
  });
});

test('reports that break a rule are refused with 400 naming the field, and nothing of them is recorded', async () => {
  await withApp(async (post, received) => {
    const refusals: Array<[unknown, RegExp]> = [
      [[], /must be a worker report object/],
      [{ ...good, identity: '' }, /identity must be a non-empty string/],
      [{ ...good, workflowTasks: 'x' }, /workflowTasks must be an array/],
      [{ ...good, workflowTasks: [{ cacheHit: 'yes', replayMs: 1, result: 'completed' }] }, /workflowTasks\[0\]\.cacheHit must be true or false/],
      [{ ...good, workflowTasks: [{ cacheHit: true, replayMs: '1', result: 'completed' }] }, /workflowTasks\[0\]\.replayMs must be a number of milliseconds/],
      [{ ...good, workflowTasks: [{ cacheHit: true, replayMs: 1, result: 'exploded' }] }, /result must be one of completed, failed/],
      [{ ...good, activities: [{ ...good.activities[0], activityType: 'a\u0000b' }] }, /activityType/],
      [{ ...good, activities: [{ ...good.activities[0], attempt: 0 }] }, /attempt must be a whole number ≥ 1/],
      [{ ...good, activities: [{ ...good.activities[0], outcome: 'meh' }] }, /outcome must be one of/],
      [{ ...good, activities: Array.from({ length: 2_001 }, () => good.activities[0]) }, /at most 2000/],
    ];
    for (const [body, message] of refusals) {
      const answer = await post(body);
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(answer.json.message ?? '', message);
    }
    assert.equal(received.length, 0);
  });
});

test('a sample out of range is clamped rather than refused: a worker clock a little behind gives a negative schedule-to-start', async () => {
  await withApp(async (post, received) => {
    const skewed = { ...good, workflowTasks: [{ cacheHit: false, replayMs: 1e300, result: 'failed' }], activities: [{ ...good.activities[0], scheduleToStartMs: -3 }] };
    assert.equal((await post(skewed)).status, 202);
    assert.equal(received[0]?.workflowTasks[0]?.replayMs, 86_400_000);
    assert.equal(received[0]?.activities[0]?.scheduleToStartMs, 0);
  });
});
