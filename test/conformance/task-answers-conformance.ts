import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { defaultHistoryConfig, type HistoryConfig } from '../../processors/history/index.js';
import { Context } from '../../sdk/worker/activity-context.js';
import { ClaimConfirmer } from '../../sdk/worker/claim-confirmer.js';
import { CLAIM_DEFER_MS } from '../../sdk/worker/deferred-claim.js';
import { TaskConsumer } from '../../sdk/worker/task-consumer.js';
import { Worker } from '../../sdk/worker/worker.js';
import { CommandWriter, type WorkerConnection } from '../../sdk/worker/worker-connection.js';
import type { Log, OutgoingRecord } from '../../topics/log/log.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { commandCodec } from '../../topics/serde/index.js';
import { ensureTaskTopics } from '../../topics/topic-setup.js';
import { withFailingWrites } from '../support/failing-writes.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const BENCH_WORKFLOWS = fileURLToPath(new URL('../bench/workflows/index.ts', import.meta.url));
/** Short enough for a test to see it pass, long enough that a worker answering normally never meets it. */
const SCHEDULE_TO_START_MS = 4_000;
const history: HistoryConfig = { ...defaultHistoryConfig, workflowTaskScheduleToStartTimeoutMs: SCHEDULE_TO_START_MS, maxWorkflowTaskScheduleToStartTimeoutMs: 2 * SCHEDULE_TO_START_MS };
const activities = { step: async (payload: string) => payload };
/** Runs past the claim delay, so its worker claims it (a shorter one sends no claim: its result implies it). */
const slowActivities = { step: async (payload: string) => new Promise<string>((resolve) => setTimeout(() => resolve(payload), 5 * CLAIM_DEFER_MS)) };

const types = (events: readonly HistoryEvent[]) => events.map((e) => e.attributes.type);
const unclaimedTimeouts = (events: readonly HistoryEvent[]) =>
  events.filter((e) => e.attributes.type === 'WorkflowTaskTimedOut' && e.attributes.timeoutType === 'ScheduleToStart' && e.attributes.startedEventId === null);

/**
 * No task is committed past before it is answered, and a dispatched workflow task nobody claims
 * times out: a worker whose claims and answers cannot be written retries them, and a task record
 * lost anyway is sent again as a new attempt. The run completes either way.
 */
export function taskAnswersConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  const workers: Worker[] = [];
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false, engine: { history } });
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.stop(2_000)));
    await t.stop();
  });

  /** A worker of `queue` (bench workflows, a trivial `step`) whose writes go through `log`. */
  async function workerOn(queue: string, log: Log, withActivities: typeof activities = activities): Promise<Worker> {
    const connection: WorkerConnection = { ...t.engine.workerConnection(), log };
    const worker = new Worker(connection, { taskQueue: queue, workflowsPath: BENCH_WORKFLOWS, activities: withActivities, history: engineHistoryFetcher(t.engine) });
    workers.push(worker);
    await worker.start();
    // Joined before the first task is dispatched: a slow join on a loaded machine must not look like an unclaimed task.
    const { prefix } = t.engine.catalog;
    for (const group of [`${prefix}-workflow-workers-default-${queue}`, `${prefix}-activity-workers-default-${queue}`]) {
      await waitFor(`the worker to join ${group}`, async () => (await t.engine.log.admin.groupMembers(group)) > 0, 30_000);
    }
    return worker;
  }

  /** The command types of a send to the command topic (empty for other topics). */
  async function commandTypes(records: readonly OutgoingRecord[]): Promise<string[]> {
    const { catalog, serde } = t.engine.workerConnection();
    const commands = records.filter((r) => r.topic === catalog.commands && r.value);
    return Promise.all(commands.map(async (r) => (await serde.decode(commandCodec, r.value!)).body.type));
  }

  test('a run completes although its worker could not write its first claims and answers: they are retried, not committed past', async () => {
    const queue = uniqueName('answers');
    const failed = new Map<string, number>();
    const faulty = withFailingWrites(t.engine.log, async (records) => {
      const [type] = await commandTypes(records);
      const failedSoFar = type === undefined ? 2 : (failed.get(type) ?? 0);
      if (failedSoFar >= 2) return false;
      failed.set(type!, failedSoFar + 1);
      return true;
    });
    await workerOn(queue, faulty, slowActivities);
    const id = uniqueName('lost-writes');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    const result = await t.result(id, 40_000);
    assert.equal(result.executionStatus, 'Completed');
    for (const type of ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'ActivityTaskStarted', 'ActivityTaskCompleted']) {
      assert.equal(failed.get(type), 2, `the first two writes of ${type} failed`);
    }
    const events = await t.history(id, runId);
    assert.ok(!types(events).some((type) => type === 'WorkflowTaskTimedOut' || type === 'WorkflowTaskFailed'), `the worker answered every task itself: ${types(events).join(', ')}`);
    const attempts = events.flatMap((e) => (e.attributes.type === 'ActivityTaskStarted' ? [e.attributes.attempt] : []));
    assert.deepEqual(attempts, [1, 1, 1], 'no activity attempt was lost to a failed write and retried');
  });

  test('an activity answered within the claim delay sends no claim: its result implies it, and history still records its start', async () => {
    const queue = uniqueName('no-claims');
    const written: string[] = [];
    const observed = withFailingWrites(t.engine.log, async (records) => {
      written.push(...(await commandTypes(records)));
      return false;
    });
    await workerOn(queue, observed);
    const id = uniqueName('no-claims');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    assert.equal((await t.result(id, 40_000)).executionStatus, 'Completed');
    assert.deepEqual([written.filter((type) => type === 'ActivityTaskCompleted').length, written.filter((type) => type === 'ActivityTaskStarted').length], [3, 0], written.join());
    const attempts = (await t.history(id, runId)).flatMap((e) => (e.attributes.type === 'ActivityTaskStarted' ? [e.attributes.attempt] : []));
    assert.deepEqual(attempts, [1, 1, 1]);
  });

  test('an activity whose partition is handed back while it runs unclaimed sends its claim and waits for the engine to accept it, then answers: one attempt, one holder', async () => {
    const queue = uniqueName('hand-back');
    const { catalog, serde } = t.engine.workerConnection();
    const claims: Array<{ identity: string; confirmed: boolean }> = [];
    const observed = withFailingWrites(t.engine.log, async (records) => {
      for (const r of records.filter((x) => x.topic === catalog.commands && x.value)) {
        const command = await serde.decode(commandCodec, r.value!);
        if (command.body.type === 'ActivityTaskStarted') claims.push({ identity: command.body.identity, confirmed: command.replyTo !== null });
      }
      return false;
    });
    let runs = 0;
    const leaving: { worker?: Worker } = {};
    // The first step hands its own partition back (its worker stops) and runs on past the claim delay.
    const handingBack = {
      step: async (payload: string) => {
        if (++runs === 1) void leaving.worker!.stop(10_000);
        await new Promise((resolve) => setTimeout(resolve, 2 * CLAIM_DEFER_MS));
        return payload;
      },
    };
    const connection: WorkerConnection = { ...t.engine.workerConnection(), log: observed };
    const history = engineHistoryFetcher(t.engine);
    leaving.worker = new Worker(connection, { taskQueue: queue, identity: 'leaving', workflowsPath: BENCH_WORKFLOWS, activities: handingBack, history });
    workers.push(leaving.worker);
    await leaving.worker.start();
    const id = uniqueName('hand-back');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    await waitFor('the first step to start', async () => runs > 0, 30_000);
    // The rest of the run is another worker's.
    const staying = new Worker(connection, { taskQueue: queue, identity: 'staying', workflowsPath: BENCH_WORKFLOWS, activities: handingBack, history });
    workers.push(staying);
    await staying.start();
    assert.equal((await t.result(id, 60_000)).executionStatus, 'Completed');
    assert.deepEqual(claims.filter((c) => c.identity === 'leaving'), [{ identity: 'leaving', confirmed: true }], 'the handed-back attempt was claimed once, with a confirmation');
    const started = (await t.history(id, runId)).flatMap((e) => (e.attributes.type === 'ActivityTaskStarted' ? [[e.attributes.identity, e.attributes.attempt]] : []));
    assert.deepEqual(started[0], ['leaving', 1], 'the leaving worker held the first attempt');
    assert.equal(runs, 3, 'each step ran once');
  });

  test('an activity whose partition is handed back while it runs unclaimed, and whose attempt another worker claimed meanwhile, is stopped and never answered', async () => {
    const queue = uniqueName('superseded');
    const { catalog, serde } = t.engine.workerConnection();
    const written: Array<{ type: string; identity: string; confirmed: boolean }> = [];
    const observed = withFailingWrites(t.engine.log, async (records) => {
      for (const r of records.filter((x) => x.topic === catalog.commands && x.value)) {
        const { body, replyTo } = await serde.decode(commandCodec, r.value!);
        if (body.type.startsWith('ActivityTask')) written.push({ type: body.type, identity: 'identity' in body ? body.identity : '', confirmed: replyTo !== null });
      }
      return false;
    });
    let started: (() => void) | undefined;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let abortedWith: unknown;
    const outcomes: string[] = [];
    const stoppable = {
      step: async (_payload: string) => {
        const signal = Context.current().cancellationSignal;
        started!();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        abortedWith = signal.reason;
        throw signal.reason;
      },
    };
    const history = engineHistoryFetcher(t.engine);
    // A claim delay far beyond the test's steps: the attempt stays unclaimed until it is handed back.
    const leaving = new Worker({ ...t.engine.workerConnection(), log: observed }, {
      taskQueue: queue, identity: 'leaving', workflowsPath: BENCH_WORKFLOWS, activities: stoppable, history, activityClaimDelayMs: 60_000,
      onActivity: (event) => outcomes.push(event.outcome),
    });
    workers.push(leaving);
    await leaving.start();
    const id = uniqueName('superseded');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    await firstStarted;
    const scheduled = (await t.history(id, runId)).find((e) => e.attributes.type === 'ActivityTaskScheduled')!;
    const run = { namespace: 'default', workflowId: id, runId };
    const ref = { scheduledEventId: scheduled.eventId, attempt: 1 };
    // Another worker holds the attempt now (as the next owner of a redelivered task would).
    const connection = t.engine.workerConnection();
    const writer = new CommandWriter(connection);
    const confirmer = new ClaimConfirmer(connection, writer);
    assert.equal(await confirmer.confirm(run, { type: 'ActivityTaskStarted', ...ref, identity: 'other' }, AbortSignal.timeout(20_000)), 'accepted');
    await confirmer.stop();
    await leaving.stop(10_000);
    assert.equal((abortedWith as { code?: string } | undefined)?.code, 'ACTIVITY_SUPERSEDED', 'the attempt was stopped');
    assert.deepEqual(outcomes, ['superseded']);
    assert.deepEqual(written, [{ type: 'ActivityTaskStarted', identity: 'leaving', confirmed: true }], 'the leaving worker only asked for the attempt; it never answered it');
    // The holder answers; the rest of the run is another worker's.
    await writer.write(run, { type: 'ActivityTaskCompleted', ...ref, identity: 'other', result: t.engine.dataConverter.toPayload('payload') });
    const staying = new Worker(t.engine.workerConnection(), { taskQueue: queue, identity: 'staying', workflowsPath: BENCH_WORKFLOWS, activities, history });
    workers.push(staying);
    await staying.start();
    assert.equal((await t.result(id, 60_000)).executionStatus, 'Completed');
    const first = (await t.history(id, runId)).find((e) => e.attributes.type === 'ActivityTaskStarted')!.attributes;
    assert.ok(first.type === 'ActivityTaskStarted' && first.identity === 'other', 'the other worker held the first attempt');
  });

  test('a workflow task committed past without an answer times out unclaimed and the run completes on its next attempt', async () => {
    const queue = uniqueName('lost-task');
    const { log, catalog } = t.engine.workerConnection();
    await ensureTaskTopics(log.admin, catalog, 'default', queue);
    const topic = catalog.taskTopics('default', queue).workflow;
    const partitions = (await log.admin.describeTopics([topic])).get(topic)!.partitions;
    // A member of the queue's group that takes a task and answers nothing, as a worker losing it would.
    const taken: number[] = [];
    const forgetful = new TaskConsumer({
      log, topic, groupId: `${catalog.prefix}-workflow-workers-default-${queue}`, identity: 'forgetful', maxConcurrent: 1, ordered: true,
      handle: async (record) => void taken.push(record.offset),
    });
    await forgetful.start();
    await waitFor('the forgetful member to own the queue', () => forgetful.assignedPartitions() === partitions, 30_000);
    const id = uniqueName('lost-task');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    await waitFor('the first workflow task to be taken and dropped', () => taken.length === 1, 30_000);
    await forgetful.stop(1_000);
    await workerOn(queue, log);
    const result = await t.result(id, 40_000);
    assert.equal(result.executionStatus, 'Completed');
    const events = await t.history(id, runId);
    assert.deepEqual(unclaimedTimeouts(events).map((e) => e.attributes.type === 'WorkflowTaskTimedOut' && e.attributes.scheduledEventId), [2]);
    const rescheduled = events.find((e) => e.eventId > 3 && e.attributes.type === 'WorkflowTaskScheduled')!;
    assert.ok(rescheduled.attributes.type === 'WorkflowTaskScheduled' && rescheduled.attributes.attempt >= 2, 'the task was sent again as a new attempt');
  });

  test('a worker whose writes fail past the schedule-to-start timeout still completes the run: its late answer is stale and the next attempt is replayed', async () => {
    const queue = uniqueName('late-answer');
    let outageStart: number | undefined;
    const faulty = withFailingWrites(t.engine.log, async (records) => {
      if ((await commandTypes(records)).length === 0) return false;
      outageStart ??= Date.now();
      return Date.now() - outageStart < SCHEDULE_TO_START_MS + 2_000;
    });
    await workerOn(queue, faulty);
    const id = uniqueName('late-answer');
    const runId = await t.start('threeSteps', queue, id, ['payload']);
    const result = await t.result(id, 40_000);
    assert.equal(result.executionStatus, 'Completed');
    const events = await t.history(id, runId);
    assert.equal(unclaimedTimeouts(events).length, 1, `the first attempt timed out unclaimed: ${types(events).join(', ')}`);
    assert.equal(types(events).filter((type) => type === 'ActivityTaskScheduled').length, 3, 'the next attempt ran the workflow from its start');
  });
}
