import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { SCHEDULER_WORKFLOWS, startScheduleWorker } from '../../gateway/schedules/schedule-worker.js';
import { ScheduleClient, type ScheduleHandle, type ScheduleOptions } from '../../sdk/client/schedule-client.js';
import { WorkflowClient } from '../../sdk/client/workflow-client.js';
import { scheduleDefinitionOf } from '../../sdk/schedules/schedule-definition.js';
import { SCHEDULER_TASK_QUEUE, SCHEDULER_WORKFLOW_TYPE, schedulerWorkflowId, type ScheduleDescription } from '../../sdk/schedules/scheduler-protocol.js';
import { replayHistory } from '../../sdk/replay/replay-history.js';
import { Worker } from '../../sdk/worker/worker.js';
import { bundleWorkflowCode } from '../../sdk/workflow/bundle.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/** Schedules end to end on one backend, through the ScheduleClient and the gateway. */

const SCHEDULED_WORKFLOWS = fileURLToPath(new URL('../workflows/scheduled.ts', import.meta.url));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the schedule tests for one backend. */
export function schedulesConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let schedules: ScheduleClient;
  let workflows: WorkflowClient;
  let workers: Worker[];
  const queue = uniqueName('scheduled');

  before(async () => {
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    const address = addressOf(server);
    schedules = new ScheduleClient({ address });
    workflows = new WorkflowClient({ address });
    const target = new Worker(t.engine.workerConnection(), { taskQueue: queue, workflowsPath: SCHEDULED_WORKFLOWS, history: engineHistoryFetcher(t.engine) });
    await target.start();
    workers = [target, await startScheduleWorker(t.engine)];
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop(1_000)));
    server.close();
    await t.stop();
  });

  const create = (label: string, options: Partial<ScheduleOptions> & { holdOpen?: boolean } = {}) => {
    const { holdOpen = false, ...rest } = options;
    const scheduleId = uniqueName(label);
    return schedules.create({
      scheduleId,
      spec: { intervals: [{ every: '1s' }] },
      action: { workflowType: 'scheduledTask', taskQueue: queue, args: [label, holdOpen] },
      ...rest,
    });
  };
  /** Ends a run a test left open (a later action may already have ended it: that is fine). */
  const endRun = async (workflowId: string) => {
    await workflows.getHandle(workflowId).terminate('test over').catch((error: { status?: number }) => {
      if (error.status !== 409) throw error;
    });
  };
  /** Describes the schedule until `check` accepts the description (polling gently: each describe is a query). */
  const describedWhen = (handle: ScheduleHandle, what: string, check: (d: ScheduleDescription) => boolean, timeoutMs = 30_000) =>
    waitFor(what, async () => {
      const description = await handle.describe();
      if (check(description)) return description;
      await pause(200);
      return undefined;
    }, timeoutMs);

  test('an interval schedule of 1 s starts runs at whole seconds, named after their scheduled time, that run to completion', async () => {
    const handle = await create('every-second');
    const described = await describedWhen(handle, 'two actions', (d) => d.info.numActions >= 2);
    await handle.delete();
    const [first, second] = described.info.recentActions;
    assert.ok(first && second);
    for (const action of [first, second]) {
      assert.equal(Date.parse(action.scheduleTime) % 1000, 0, action.scheduleTime);
      assert.equal(action.workflowId, `${handle.scheduleId}-${action.scheduleTime}`);
    }
    assert.ok(Date.parse(second.scheduleTime) > Date.parse(first.scheduleTime));
    const outcome = await workflows.getHandle(first.workflowId, first.runId).result('30s');
    assert.equal(outcome.status, 'Completed');
    assert.equal(outcome.result, 'every-second');
    const tagged = await workflows.count(`TemporalScheduledById = '${handle.scheduleId}'`);
    assert.ok(tagged >= 2, `runs tagged with the schedule id: ${tagged}`);
  });

  test('pause stops the actions and shows the note; unpause resumes them', async () => {
    const handle = await create('paused');
    await describedWhen(handle, 'a first action', (d) => d.info.numActions >= 1);
    await handle.pause('maintenance window');
    const paused = await describedWhen(handle, 'the pause', (d) => d.schedule.state.paused);
    assert.equal(paused.schedule.state.note, 'maintenance window');
    assert.deepEqual(paused.info.nextActionTimes, []);
    await pause(3_000);
    const later = await handle.describe();
    assert.equal(later.info.numActions, paused.info.numActions, 'no action while paused');
    await handle.unpause('back');
    const resumed = await describedWhen(handle, 'an action after unpause', (d) => d.info.numActions > paused.info.numActions);
    assert.equal(resumed.schedule.state.paused, false);
    assert.equal(resumed.schedule.state.note, 'back');
    await handle.delete();
  });

  test('trigger starts a run now on a schedule whose next action is an hour away', async () => {
    const handle = await create('triggered', { spec: { intervals: [{ every: '1h' }] } });
    const before = Date.now();
    await handle.trigger();
    const described = await describedWhen(handle, 'the triggered action', (d) => d.info.numActions === 1);
    await handle.delete();
    const action = described.info.recentActions[0]!;
    assert.ok(Date.parse(action.scheduleTime) >= before - 1000, `${action.scheduleTime} is now`);
    assert.equal((await workflows.getHandle(action.workflowId).result('30s')).result, 'triggered');
  });

  test('backfill starts the runs the spec had in a past range, both ends included, even while paused', async () => {
    // Paused, so no scheduled action mixes with the backfilled ones.
    const handle = await create('backfilled', { spec: { intervals: [{ every: '1m' }] }, state: { paused: true } });
    const minute = 60_000;
    const end = Math.floor(Date.now() / minute) * minute - 10 * minute;
    await handle.backfill({ startAt: new Date(end - 4 * minute), endAt: new Date(end), overlap: 'ALLOW_ALL' });
    const described = await describedWhen(handle, 'five backfilled actions', (d) => d.info.numActions >= 5);
    await handle.delete();
    const times = described.info.recentActions.map((a) => a.scheduleTime).sort();
    assert.deepEqual(times, [4, 3, 2, 1, 0].map((k) => new Date(end - k * minute).toISOString()));
    assert.equal(described.info.numActions, 5);
  });

  test('SKIP (the default) skips actions while the previous run is open and acts again once it closed', async () => {
    const handle = await create('skip', { holdOpen: true });
    const skipping = await describedWhen(handle, 'two skipped actions', (d) => d.info.numActionsSkippedOverlap >= 2);
    assert.equal(skipping.schedule.policies.overlap, 'SKIP');
    assert.equal(skipping.info.numActions, 1);
    assert.equal(skipping.info.runningWorkflows.length, 1);
    await workflows.getHandle(skipping.info.runningWorkflows[0]!.workflowId).signal('finish');
    const next = await describedWhen(handle, 'an action after the run closed', (d) => d.info.numActions >= 2);
    await handle.delete();
    await endRun(next.info.recentActions[1]!.workflowId);
  });

  test('a started workflow that continued as new is still the schedule\'s run: SKIP skips while it is open, TERMINATE_OTHER ends its current run', async () => {
    const scheduleId = uniqueName('chain');
    const handle = await schedules.create({
      scheduleId, spec: { intervals: [{ every: '1s' }] }, action: { workflowType: 'scheduledChain', taskQueue: queue, args: [scheduleId] },
    });
    const skipping = await describedWhen(handle, 'two skipped actions', (d) => d.info.numActionsSkippedOverlap >= 2);
    assert.equal(skipping.info.numActions, 1, 'no second run while the continued one is open');
    await handle.update({
      spec: { intervals: [{ every: '1s' }] }, action: { workflowType: 'scheduledChain', taskQueue: queue, args: [scheduleId] },
      policies: { overlap: 'TERMINATE_OTHER' },
    });
    const replaced = await describedWhen(handle, 'a second action', (d) => d.info.numActions >= 2);
    await handle.delete();
    const [first, second] = replaced.info.recentActions;
    const outcome = await workflows.getHandle(first!.workflowId).result('30s');
    assert.equal(outcome.status, 'Terminated', 'the continued run, not only the first, was terminated');
    await endRun(second!.workflowId);
  });

  test('ALLOW_ALL starts every action while earlier runs are still open', async () => {
    const handle = await create('allow-all', { holdOpen: true, policies: { overlap: 'ALLOW_ALL' } });
    const described = await describedWhen(handle, 'three actions', (d) => d.info.numActions >= 3);
    await handle.delete();
    assert.equal(described.info.numActionsSkippedOverlap, 0);
    const open = (await Promise.all(described.info.recentActions.map(async (a) => (await workflows.getHandle(a.workflowId).describe()) as { executionInfo: { status: string } }))).filter(
      (d) => d.executionInfo.status === 'Running',
    );
    assert.ok(open.length >= 3, `open runs: ${open.length}`);
    await Promise.all(described.info.recentActions.map((a) => endRun(a.workflowId)));
  });

  test('BUFFER_ONE keeps one action waiting while the run is open, drops the rest, and starts the kept one when the run closes', async () => {
    const handle = await create('buffer-one', { holdOpen: true, policies: { overlap: 'BUFFER_ONE' } });
    const waiting = await describedWhen(handle, 'one buffered and one dropped action', (d) => d.info.bufferedStarts === 1 && d.info.numActionsSkippedOverlap >= 1);
    assert.equal(waiting.info.numActions, 1);
    const first = waiting.info.recentActions[0]!;
    await workflows.getHandle(first.workflowId).signal('finish');
    const next = await describedWhen(handle, 'the buffered action', (d) => d.info.numActions >= 2);
    await handle.delete();
    const second = next.info.recentActions[1]!;
    // The kept action is the first that came due while the run was open, taken late.
    assert.equal(Date.parse(second.scheduleTime), Date.parse(first.scheduleTime) + 1000);
    assert.ok(Date.parse(second.actualTime) > Date.parse(second.scheduleTime) + 1000, `${second.actualTime} is late`);
    await endRun(second.workflowId);
  });

  test('BUFFER_ALL keeps every action that came due while a run was open and starts them one after another, in order', async () => {
    const handle = await create('buffer-all', { holdOpen: true, policies: { overlap: 'BUFFER_ALL' } });
    const waiting = await describedWhen(handle, 'two buffered actions', (d) => d.info.bufferedStarts >= 2);
    assert.equal(waiting.info.numActions, 1);
    assert.equal(waiting.info.numActionsSkippedOverlap, 0);
    await handle.pause();
    for (let n = 1; n <= 2; n++) {
      const described = await describedWhen(handle, `action ${n + 1}`, (d) => d.info.numActions === n && d.info.runningWorkflows.length === 1);
      await workflows.getHandle(described.info.runningWorkflows[0]!.workflowId).signal('finish');
    }
    const done = await describedWhen(handle, 'the third action', (d) => d.info.numActions >= 3);
    await handle.delete();
    const [first, second, third] = done.info.recentActions.map((a) => Date.parse(a.scheduleTime));
    assert.deepEqual([second! - first!, third! - first!], [1000, 2000]);
    await Promise.all(done.info.recentActions.map((a) => endRun(a.workflowId)));
  });

  test('CANCEL_OTHER cancels the open run and then starts the new one', async () => {
    const handle = await create('cancel-other', { holdOpen: true, policies: { overlap: 'CANCEL_OTHER' } });
    const described = await describedWhen(handle, 'a second action', (d) => d.info.numActions >= 2);
    await handle.delete();
    const [first, second] = described.info.recentActions;
    assert.equal((await workflows.getHandle(first!.workflowId).result('30s')).status, 'Canceled');
    await endRun(second!.workflowId);
  });

  test('TERMINATE_OTHER terminates the open run and starts the new one', async () => {
    const handle = await create('terminate-other', { holdOpen: true, policies: { overlap: 'TERMINATE_OTHER' } });
    const described = await describedWhen(handle, 'a second action', (d) => d.info.numActions >= 2);
    await handle.delete();
    const [first, second] = described.info.recentActions;
    assert.equal((await workflows.getHandle(first!.workflowId).result('30s')).status, 'Terminated');
    await endRun(second!.workflowId);
  });

  test('a schedule limited to 2 actions takes 2 and then stops, with no next action times', async () => {
    const handle = await create('limited', { state: { remainingActions: 2 } });
    const done = await describedWhen(handle, 'two actions', (d) => d.info.numActions === 2);
    await pause(2_500);
    const later = await handle.describe();
    await handle.delete();
    assert.equal(later.info.numActions, 2);
    assert.equal(later.schedule.state.remainingActions, 0);
    assert.deepEqual(later.info.nextActionTimes, []);
    assert.equal(done.info.recentActions.length, 2);
  });

  test('a cron expression with a seconds field acts every second', async () => {
    const handle = await create('cron', { spec: { cronExpressions: ['*/1 * * * * *'] } });
    const described = await describedWhen(handle, 'two actions', (d) => d.info.numActions >= 2);
    await handle.delete();
    const [first, second] = described.info.recentActions;
    assert.equal(Date.parse(first!.scheduleTime) % 1000, 0);
    assert.ok(Date.parse(second!.scheduleTime) > Date.parse(first!.scheduleTime));
  });

  test('a schedule in a time zone records its action times as side effects, so its history replays whatever time-zone rules the replaying runtime has', async () => {
    const handle = await create('zoned', { spec: { cronExpressions: ['*/1 * * * * *'], timeZone: 'Asia/Tokyo' } });
    await describedWhen(handle, 'two actions', (d) => d.info.numActions >= 2);
    await handle.delete();
    const scheduler = workflows.getHandle(schedulerWorkflowId(handle.scheduleId));
    const outcome = await scheduler.result('30s');
    const history = await t.engine.history('default', schedulerWorkflowId(handle.scheduleId), outcome.runId);
    const markers = history.filter((e) => e.attributes.type === 'MarkerRecorded');
    assert.ok(markers.length >= 2, `side effect markers recorded (${markers.length})`);
    const replayed = replayHistory(await bundleWorkflowCode({ workflowsPath: SCHEDULER_WORKFLOWS }), history);
    assert.ok(replayed.ok, replayed.ok ? '' : replayed.error.message);
  });

  test('the scheduler continues as new and carries its counters and recent actions to the next run', async () => {
    const scheduleId = uniqueName('handover');
    const schedule = scheduleDefinitionOf({ spec: { intervals: [{ every: '1s' }] }, action: { workflowType: 'scheduledTask', taskQueue: queue, args: ['handover', false] } }, scheduleId);
    const started = await t.engine.client.start({
      workflowId: schedulerWorkflowId(scheduleId),
      workflowType: SCHEDULER_WORKFLOW_TYPE,
      taskQueue: SCHEDULER_TASK_QUEUE,
      args: [{ scheduleId, schedule, wakesPerRun: 2 }],
    });
    const handle = schedules.getHandle(scheduleId);
    const described = await describedWhen(handle, 'four actions', (d) => d.info.numActions >= 4);
    const scheduler = (await workflows.getHandle(schedulerWorkflowId(scheduleId)).describe()) as { executionInfo: { runId: string } };
    await handle.delete();
    assert.notEqual(scheduler.executionInfo.runId, started.runId, 'a later run of the chain answers');
    assert.equal(described.info.recentActions.length, described.info.numActions);
    assert.equal(new Set(described.info.recentActions.map((a) => a.workflowId)).size, described.info.numActions);
  });

  test('the history a scheduler recorded (actions, trigger, pause, unpause, update, delete) replays without non-determinism', async () => {
    const handle = await create('replayed');
    await describedWhen(handle, 'a first action', (d) => d.info.numActions >= 1);
    await handle.trigger('ALLOW_ALL');
    await handle.pause('replay me');
    await handle.update({ spec: { intervals: [{ every: '2s' }] }, action: { workflowType: 'scheduledTask', taskQueue: queue, args: ['replayed', false] } });
    await handle.unpause();
    await describedWhen(handle, 'an action on the new spec', (d) => d.info.recentActions.some((a) => Date.parse(a.scheduleTime) % 2000 === 0 && Date.parse(a.scheduleTime) > Date.parse(d.info.lastUpdatedAt!)));
    await handle.delete();
    const scheduler = workflows.getHandle(schedulerWorkflowId(handle.scheduleId));
    const outcome = await scheduler.result('30s');
    assert.equal(outcome.status, 'Completed');
    const history = await t.engine.history('default', schedulerWorkflowId(handle.scheduleId), outcome.runId);
    const types = new Set<string>(history.map((e) => e.attributes.type));
    for (const type of ['WorkflowExecutionSignaled', 'ActivityTaskCompleted', 'TimerFired', 'WorkflowExecutionCompleted']) assert.ok(types.has(type), `${type} recorded`);
    const replayed = replayHistory(await bundleWorkflowCode({ workflowsPath: SCHEDULER_WORKFLOWS }), history);
    assert.ok(replayed.ok, replayed.ok ? '' : replayed.error.message);
  });

  test('delete stops the schedule: describe answers 404, it is no longer listed, and no more runs start', async () => {
    const handle = await create('deleted');
    await describedWhen(handle, 'a first action', (d) => d.info.numActions >= 1);
    assert.ok((await schedules.list()).some((s) => s.scheduleId === handle.scheduleId), 'listed while it exists');
    await handle.delete();
    await assert.rejects(handle.describe(), (error: { status?: number; code?: string }) => error.status === 404 && error.code === 'ScheduleNotFound');
    await waitFor('the schedule to leave the list', async () => !(await schedules.list()).some((s) => s.scheduleId === handle.scheduleId));
    const count = () => workflows.count(`TemporalScheduledById = '${handle.scheduleId}'`);
    const atDelete = await waitFor('the last run to be listed', async () => {
      const before = await count();
      await pause(1_500);
      return (await count()) === before ? before : undefined;
    });
    await pause(2_500);
    assert.equal(await count(), atDelete);
  });
}
