import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { CancelledFailure, IllegalStateError } from 'logbook/common';
import { activityInfo, cancellationSignal, heartbeat, sleep } from 'logbook/activity';
import { MockActivityEnvironment, TestWorkflowEnvironment } from 'logbook/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, Worker } from 'logbook/worker';
import { failFirstAttempt, sleepADay, sleepForDays, wakeUp } from '../workflows/time-skipping.js';
import { uniqueName } from '../support/test-env.js';

/** `logbook/testing` as Temporal's users use it: the time-skipping and local environments, and the mock activity environment. */

const WORKFLOWS = fileURLToPath(new URL('../workflows/time-skipping.ts', import.meta.url));
const taskQueue = 'time-skipping';

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

before(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping();
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: WORKFLOWS });
  running = worker.run();
});
after(async () => {
  worker.shutdown();
  await running;
  await env.teardown();
});

test('createTimeSkipping: a workflow that sleeps 30 days, signalled after 10, finishes in under 10 s of real time and sees the days pass', { timeout: 60_000 }, async () => {
  const began = performance.now();
  const handle = await env.client.workflow.start(sleepForDays, { taskQueue, workflowId: uniqueName('days') });
  await env.sleep('10 days');
  await handle.signal(wakeUp, 'tester');
  const days = await handle.result();
  const realMs = performance.now() - began;
  assert.equal(days.by, 'tester');
  assert.ok(days.signalledOnDay !== null && days.signalledOnDay >= 10 && days.signalledOnDay < 10.01, `signalled on day ${days.signalledOnDay}`);
  assert.ok(days.endedOnDay >= 30 && days.endedOnDay < 30.01, `ended on day ${days.endedOnDay}`);
  assert.ok(realMs < 10_000, `took ${Math.round(realMs)} ms of real time`);
});

test('time does not skip while the test is not awaiting a result: a one-day timer stays pending until result() is called', { timeout: 60_000 }, async () => {
  const handle = await env.client.workflow.start(sleepADay, { taskQueue, workflowId: uniqueName('day') });
  const before = env.currentTimeMs();
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal((await handle.describe()).status.name, 'RUNNING');
  assert.ok(env.currentTimeMs() - before < 60_000, 'the clock moved only as real time did');
  assert.equal(await handle.result(), 'rested');
  assert.ok(env.currentTimeMs() - before >= 86_400_000, 'a day passed while the result was awaited');
});

test('time skipping covers a start delay: a retry one hour after a failed first attempt runs at once', { timeout: 60_000 }, async () => {
  const before = env.currentTimeMs();
  const attempt = await env.client.workflow.execute(failFirstAttempt, { taskQueue, workflowId: uniqueName('retried'), retry: { initialInterval: '1 hour', maximumAttempts: 2 } });
  assert.equal(attempt, 2);
  assert.ok(env.currentTimeMs() - before >= 3_600_000, 'an hour passed in engine time');
});

test('createLocal runs on real time: env.sleep waits for real, and a workflow waiting 30 days stays running', async () => {
  const local = await TestWorkflowEnvironment.createLocal();
  try {
    assert.equal(local.supportsTimeSkipping, false);
    const localWorker = await Worker.create({ connection: local.nativeConnection, taskQueue, workflowsPath: WORKFLOWS });
    const before = Date.now();
    await local.sleep(200);
    assert.ok(Date.now() - before >= 190);
    // Awaiting the result lets time skip in a time-skipping environment; here the run must still wait.
    const outcome = await localWorker.runUntil(async () => {
      const handle = await local.client.workflow.start(sleepForDays, { taskQueue, workflowId: uniqueName('local') });
      const waited = await Promise.race([handle.result().then(() => 'finished', () => 'ended'), new Promise((resolve) => setTimeout(resolve, 1_500, 'still waiting'))]);
      await handle.terminate('done');
      return waited;
    });
    assert.equal(outcome, 'still waiting');
  } finally {
    await local.teardown();
  }
});

test('a worker runs a bundle built before, from its code or from the file it was written to; code that is no bundle is refused by Worker.create', { timeout: 120_000 }, async () => {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS });
  const dir = await mkdtemp(join(tmpdir(), 'logbook-bundle-'));
  try {
    const codePath = join(dir, 'workflow-bundle.js');
    await writeFile(codePath, code);
    for (const workflowBundle of [{ code }, { codePath }]) {
      const prebuilt = await Worker.create({ connection: env.nativeConnection, taskQueue: 'prebuilt', workflowBundle });
      const result = await prebuilt.runUntil(env.client.workflow.execute(sleepADay, { taskQueue: 'prebuilt', workflowId: uniqueName('prebuilt') }));
      assert.equal(result, 'rested');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await assert.rejects(Worker.create({ connection: env.nativeConnection, taskQueue: 'prebuilt', workflowBundle: { code: 'console.log(1)' } }), /is not a workflow bundle made by bundleWorkflowCode/);
});

test("worker states follow Temporal's: shutdown() before run() is an IllegalStateError, STOPPING at once, STOPPED once run() resolves, and a worker runs once", async () => {
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue: 'states', workflowsPath: WORKFLOWS });
  assert.equal(worker.getState(), 'INITIALIZED');
  assert.throws(() => worker.shutdown(), IllegalStateError);
  const running = worker.run();
  assert.equal(worker.getState(), 'RUNNING');
  worker.shutdown();
  assert.equal(worker.getState(), 'STOPPING');
  await running;
  assert.equal(worker.getState(), 'STOPPED');
  await assert.rejects(worker.run(), IllegalStateError);
});

test('MockActivityEnvironment runs an activity with the info given, emits its heartbeats, and cancel() reaches it as a CancelledFailure', async () => {
  const env = new MockActivityEnvironment({ attempt: 3, activityType: 'ship' });
  const beats: unknown[] = [];
  env.on('heartbeat', (details: unknown) => beats.push(details));
  const ship = async (parcel: string) => {
    heartbeat(`${parcel}: packed`);
    return `${activityInfo().activityType} ${parcel} on attempt ${activityInfo().attempt}`;
  };
  assert.equal(await env.run(ship, 'p-1'), 'ship p-1 on attempt 3');
  assert.deepEqual(beats, ['p-1: packed']);

  const waiting = env.run(async () => {
    await sleep('1 hour');
    return cancellationSignal().aborted;
  });
  env.cancel();
  await assert.rejects(waiting, (e: unknown) => e instanceof CancelledFailure);
});
