import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  ActivityCancelledError,
  ActivityFailure,
  ActivityNotFoundError,
  ApplicationFailure,
  DeterminismViolationError,
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  CancelledFailure,
  ChildWorkflowFailure,
  Client,
  Connection,
  ConnectionError,
  TerminatedFailure,
  TimeoutFailure,
  WithStartWorkflowOperation,
  WorkflowContinuedAsNewError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowIdConflictPolicy,
  WorkflowNotFoundError,
  ServiceError,
  WorkflowUpdateStage,
} from 'logbook/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogEntry } from 'logbook/worker';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import { startScheduleWorker } from '../../gateway/schedules/schedule-worker.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { addItem, approval, approve, approvedAsync, continueThenWait, generic, parentOfRejected, itemAt, retier, scoreKey, charge, countdown, greet, inspect, rejectOrder, slowUpdate, stage, waitForever } from '../workflows/temporal-compatible.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * Temporal's API as a Temporal user calls it: `logbook/client` through a gateway, a worker made
 * with `logbook/worker`'s `Worker.create`, and workflows and activities that import only
 * `logbook/workflow`, `logbook/activity` and `logbook/common`, end to end on one backend.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const CHANGED_WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible-changed.ts', import.meta.url));

/** Which doors the suite's worker and client use. */
export interface CompatibilityPaths {
  /** The workers' tasks: the task topics (default), or the gateway's HTTP task endpoints (`NativeConnection.connect({ address })`). */
  readonly taskPath?: 'task-topics' | 'http';
  /** The client's calls: the gateway (default), or the log itself (`Connection.connect({ brokers })`; reads still through the gateway). */
  readonly clientPath?: 'gateway' | 'log';
}

/** Registers the Temporal-compatibility tests for one backend, with the worker and the client on the given paths. */
export function temporalCompatibilityConformance(backend: 'kafka' | 'embedded', paths: CompatibilityPaths = {}): void {
  const { taskPath = 'task-topics', clientPath = 'gateway' } = paths;
  let t: TestEngine;
  let server: Server;
  let client: Client;
  let clientConnection: Connection;
  const taskQueue = uniqueName('temporal-compatible');

  let worker: Worker;
  let workerConnection: NativeConnection;
  let running: Promise<void>;
  let scheduler: { stop(graceMs?: number): Promise<void> };
  const logged: LogEntry[] = [];

  before(async () => {
    Runtime.install({ logger: new DefaultLogger('DEBUG', (entry) => logged.push(entry)) });
    t = await startTestEngine(backend, { workers: false });
    server = await serveGateway(t.engine);
    workerConnection =
      taskPath === 'http'
        ? await NativeConnection.connect({ address: addressOf(server), taskPath: 'gateway' })
        : NativeConnection.fromParts(t.engine.workerConnection(), engineHistoryFetcher(t.engine));
    worker = await Worker.create({ connection: workerConnection, namespace: 'default', taskQueue, workflowsPath: WORKFLOWS, activities });
    running = worker.run();
    scheduler = await startScheduleWorker(t.engine);
    // Temporal's form of an address: host:port, no scheme.
    const address = addressOf(server).replace('http://', '');
    if (clientPath === 'gateway') clientConnection = await Connection.connect({ address });
    else if (backend === 'kafka') clientConnection = await Connection.connect({ brokers: kafkaBrokers(), prefix: t.engine.catalog.prefix, address });
    else clientConnection = await Connection.fromLog(t.engine.log, t.engine.catalog, { address });
    client = new Client({ connection: clientConnection, namespace: 'default' });
  });
  after(async () => {
    worker.shutdown();
    await running;
    await scheduler.stop(1_000);
    await workerConnection.close();
    await clientConnection.close();
    Runtime.install({ logger: new DefaultLogger('INFO') });
    server.closeAllConnections();
    server.close();
    await stopTaskBridges(t.engine);
    await t.stop();
  });

  test('execute by the workflow function returns its value, and start by name gives a handle whose result() is the value', async () => {
    assert.equal(await client.workflow.execute(greet, { taskQueue, workflowId: uniqueName('greet'), args: ['Temporal'] }), 'Hello, Temporal!');
    const handle = await client.workflow.start('greet', { taskQueue, workflowId: uniqueName('greet'), args: ['Kafka'] });
    assert.ok(handle.firstExecutionRunId);
    assert.equal(await handle.result(), 'Hello, Kafka!');
  });

  test('signal, query and update by their definitions; describe in Temporal shape (status name, Date times, history length)', async () => {
    const handle = await client.workflow.start(approval, { taskQueue, workflowId: uniqueName('approval') });
    assert.equal(await handle.query(stage), 'waiting for approval');
    assert.equal(await handle.executeUpdate(addItem, { args: ['book'] }), 1);
    assert.equal(await handle.query(itemAt, 0), 'book');
    assert.equal(await handle.query(itemAt, 7), undefined, 'a query answering undefined stays undefined');
    assert.equal(await handle.query(itemAt, -1), null);
    const accepted = await handle.startUpdate(addItem, { args: ['pen'], waitForStage: WorkflowUpdateStage.ACCEPTED });
    assert.equal(await accepted.result(), 2);
    const running = await handle.describe();
    assert.deepEqual(running.status, { code: 1, name: 'RUNNING' });
    assert.equal(running.type, 'approval');
    assert.equal(running.taskQueue, taskQueue);
    assert.ok(running.startTime instanceof Date && running.startTime.getTime() > Date.now() - 600_000);
    await handle.signal(approve, 'ada');
    assert.equal(await handle.result(), 'approved by ada with 2 items');
    const closed = await handle.describe();
    assert.equal(closed.status.name, 'COMPLETED');
    assert.ok(closed.closeTime instanceof Date);
    assert.ok(closed.historyLength > 5);
    const { events } = await handle.fetchHistory();
    assert.equal(events[0]?.attributes.type, 'WorkflowExecutionStarted');
  });

  test('a run that fails with an ApplicationFailure throws WorkflowFailedError whose cause keeps its type, details and non-retryable flag', async () => {
    const orderId = uniqueName('order');
    const error = await client.workflow.execute(rejectOrder, { taskQueue, workflowId: orderId, args: [orderId] }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError, `got ${String(error)}`);
    assert.ok(error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, 'OrderRejected');
    assert.equal(error.cause.message, `order ${orderId} rejected`);
    assert.equal(error.cause.nonRetryable, true);
    assert.deepEqual(error.cause.details, [{ orderId }]);
  });

  test('an activity failure that fails the run arrives as WorkflowFailedError → ActivityFailure → the activity\'s ApplicationFailure', async () => {
    const error = await client.workflow.execute(charge, { taskQueue, workflowId: uniqueName('charge'), args: ['declined'] }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError, `got ${String(error)}`);
    assert.ok(error.cause instanceof ActivityFailure, `cause ${String(error.cause)}`);
    assert.ok(error.cause.cause instanceof ApplicationFailure);
    assert.equal(error.cause.cause.type, 'CardDeclined');
    assert.equal(error.cause.cause.message, 'card declined was declined');
    assert.equal(await client.workflow.execute(charge, { taskQueue, workflowId: uniqueName('charge'), args: ['visa'] }), 'charged visa');
  });

  test('result() follows continue-as-new to the last run; with followRuns false it throws WorkflowContinuedAsNewError naming the next run', async () => {
    const workflowId = uniqueName('countdown');
    const handle = await client.workflow.start(countdown, { taskQueue, workflowId, args: [1, 3] });
    assert.equal(await handle.result(), 3);
    const first = client.workflow.getHandle(workflowId, handle.firstExecutionRunId, { followRuns: false });
    const error = await first.result().catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowContinuedAsNewError, `got ${String(error)}`);
    assert.ok(error.newExecutionRunId && error.newExecutionRunId !== handle.firstExecutionRunId);
  });

  test('the handle a start returns reaches the current run after continue-as-new: describe, signal and result', async () => {
    const handle = await client.workflow.start(continueThenWait, { taskQueue, workflowId: uniqueName('continued'), args: [0] });
    const current = await waitFor('the run to continue as new', async () => {
      const described = await handle.describe();
      return described.runId !== handle.firstExecutionRunId ? described : undefined;
    });
    assert.equal(current.status.name, 'RUNNING');
    await handle.signal(approve, 'dan');
    assert.equal(await handle.result(), 'dan');
  });

  test('signalWithStart by the workflow function starts the run with the signal delivered, and signals the open run the second time', async () => {
    const workflowId = uniqueName('signal-with-start');
    const first = await client.workflow.signalWithStart(generic, { taskQueue, workflowId, signal: 'hello', signalArgs: ['bob'] });
    const second = await client.workflow.signalWithStart(generic, { taskQueue, workflowId, signal: { name: 'finish' }, signalArgs: ['eve'] });
    assert.equal(second.firstExecutionRunId, first.firstExecutionRunId, 'the second call found the open run');
    assert.deepEqual((await first.result()).received, ['hello:["bob"]', 'finish:["eve"]']);
  });

  test('a child that fails fails its parent with WorkflowFailedError → ChildWorkflowFailure → the child\'s ApplicationFailure; a run past its execution timeout throws TimeoutFailure', async () => {
    const orderId = uniqueName('parent');
    const error = await client.workflow.execute(parentOfRejected, { taskQueue, workflowId: orderId, args: [orderId] }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError && error.cause instanceof ChildWorkflowFailure, `got ${String(error)} caused by ${String((error as Error).cause)}`);
    assert.ok(error.cause.cause instanceof ApplicationFailure && error.cause.cause.type === 'OrderRejected', `got ${String(error.cause.cause)}`);
    const timedOut = await client.workflow.execute(waitForever, { taskQueue, workflowId: uniqueName('timeout'), workflowExecutionTimeout: '1s' }).catch((e: unknown) => e);
    assert.ok(timedOut instanceof WorkflowFailedError && timedOut.cause instanceof TimeoutFailure, `got ${String(timedOut)} caused by ${String((timedOut as Error).cause)}`);
  });

  test('a terminated run throws WorkflowFailedError caused by TerminatedFailure, a cancelled one by CancelledFailure', async () => {
    const terminated = await client.workflow.start(waitForever, { taskQueue, workflowId: uniqueName('terminate') });
    await terminated.terminate('enough');
    const t1 = await terminated.result().catch((e: unknown) => e);
    assert.ok(t1 instanceof WorkflowFailedError && t1.cause instanceof TerminatedFailure, `got ${String(t1)}`);
    assert.equal(t1.cause.message, 'enough');
    const cancelled = await client.workflow.start(waitForever, { taskQueue, workflowId: uniqueName('cancel') });
    await cancelled.cancel();
    const c1 = await cancelled.result().catch((e: unknown) => e);
    assert.ok(c1 instanceof WorkflowFailedError && c1.cause instanceof CancelledFailure, `got ${String(c1)}`);
  });

  test("conflict policy 'FAIL' on an open run throws WorkflowExecutionAlreadyStartedError; USE_EXISTING answers the open run", async () => {
    const workflowId = uniqueName('conflict');
    const open = await client.workflow.start(waitForever, { taskQueue, workflowId });
    const error = await client.workflow.start(waitForever, { taskQueue, workflowId, workflowIdConflictPolicy: 'FAIL' }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowExecutionAlreadyStartedError, `got ${String(error)}`);
    assert.equal(error.workflowId, workflowId);
    assert.equal(error.workflowType, 'waitForever');
    const existing = await client.workflow.start(waitForever, { taskQueue, workflowId, workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING });
    assert.equal(existing.firstExecutionRunId, open.firstExecutionRunId);
    await open.terminate();
    await assert.rejects(client.workflow.start(waitForever, { taskQueue, workflowId, workflowIdConflictPolicy: 'SOMETIMES' as never }), /workflowIdConflictPolicy must be one of FAIL, USE_EXISTING, TERMINATE_EXISTING/);
  });

  test('executeUpdateWithStart starts the run and answers the update; the operation gives the handle', async () => {
    const workflowId = uniqueName('uws');
    const startWorkflowOperation = new WithStartWorkflowOperation(approval, { taskQueue, workflowId, workflowIdConflictPolicy: 'USE_EXISTING' });
    assert.equal(await client.workflow.executeUpdateWithStart(addItem, { args: ['lamp'], startWorkflowOperation }), 1);
    const handle = await startWorkflowOperation.workflowHandle();
    await handle.signal('approve', 'bob');
    assert.equal(await handle.result(), 'approved by bob with 1 items');
  });

  test('startUpdateWithStart answers once the update is accepted, with a handle whose result() is the update\'s; a second call reaches the same run', async () => {
    const workflowId = uniqueName('suws');
    const first = new WithStartWorkflowOperation(approval, { taskQueue, workflowId, workflowIdConflictPolicy: 'USE_EXISTING' });
    const accepted = await client.workflow.startUpdateWithStart(addItem, { args: ['desk'], waitForStage: WorkflowUpdateStage.ACCEPTED, startWorkflowOperation: first });
    assert.equal(await accepted.result(), 1);
    const second = new WithStartWorkflowOperation(approval, { taskQueue, workflowId, workflowIdConflictPolicy: 'USE_EXISTING' });
    const again = await client.workflow.startUpdateWithStart(addItem, { args: ['chair'], waitForStage: WorkflowUpdateStage.ACCEPTED, startWorkflowOperation: second });
    assert.equal(await again.result(), 2);
    const handle = await second.workflowHandle();
    assert.equal(handle.firstExecutionRunId, (await first.workflowHandle()).firstExecutionRunId);
    await handle.signal(approve, 'cleo');
    assert.equal(await handle.result(), 'approved by cleo with 2 items');
  });

  test('list and count take the visibility query and answer in Temporal shapes', async () => {
    const workflowId = uniqueName('listed');
    await client.workflow.execute(greet, { taskQueue, workflowId, args: ['list'] });
    const row = await waitFor('the run to be listed closed', async () => {
      for await (const info of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) if (info.status.name === 'COMPLETED') return info;
      return undefined;
    });
    assert.equal(row.type, 'greet');
    assert.ok(row.startTime instanceof Date);
    assert.deepEqual(await client.workflow.count(`WorkflowId = '${workflowId}'`), { count: 1, groups: [] });
  });

  test('activities read activityInfo() with the workflow execution and timeouts; workflow and activity log entries reach Runtime.install\'s logger with their attributes, once each', async () => {
    const workflowId = uniqueName('inspect');
    const info = (await client.workflow.execute(inspect, { taskQueue, workflowId })) as Record<string, unknown>;
    const runId = (await client.workflow.getHandle(workflowId).describe()).runId;
    assert.deepEqual(info, {
      workflowExecution: { workflowId, runId },
      activityType: 'describeActivity',
      attempt: 1,
      isLocal: false,
      startToCloseTimeoutMs: 10_000,
      scheduledBeforeStart: true,
      sameAsContext: true,
      heartbeatTimeoutMs: null,
    });
    const workflowLines = logged.filter((e) => e.message === 'inspecting' && e.meta?.workflowId === workflowId);
    assert.equal(workflowLines.length, 1, 'logged once, though the run is activated again after the activity');
    assert.deepEqual({ level: workflowLines[0]!.level, ...workflowLines[0]!.meta }, { level: 'INFO', sdkComponent: 'workflow', namespace: 'default', taskQueue, workflowId, runId, workflowType: 'inspect', step: 1 });
    const activityLine = logged.find((e) => e.message === 'described' && e.meta?.workflowId === workflowId);
    assert.ok(activityLine, 'the activity logged');
    assert.equal(activityLine.level, 'WARN');
    assert.equal(activityLine.meta?.activityType, 'describeActivity');
    assert.equal(activityLine.meta?.attempt, 1);
    assert.equal(activityLine.meta?.custom, true);
  });

  /** The next token `awaitApproval` announces for `orderId`. */
  const nextApproval = (orderId: string) =>
    new Promise<{ activityId: string; taskToken: string }>((resolve) => {
      const listener = (token: { orderId: string; activityId: string; taskToken: string }) => {
        if (token.orderId !== orderId) return;
        activities.asyncApprovals.off('token', listener);
        resolve(token);
      };
      activities.asyncApprovals.on('token', listener);
    });

  test('async completion: an activity throws CompleteAsyncError, client.activity heartbeats and completes it by task token, and a second completion is ActivityNotFoundError', async () => {
    const orderId = uniqueName('async');
    const announced = nextApproval(orderId);
    const handle = await client.workflow.start(approvedAsync, { taskQueue, workflowId: orderId, args: [orderId] });
    const { taskToken } = await announced;
    await client.activity.heartbeat(Buffer.from(taskToken, 'base64'), { progress: 'reviewing' });
    await client.activity.complete(taskToken, 'approved by ops');
    assert.equal(await handle.result(), 'approved by ops');
    await assert.rejects(client.activity.complete(taskToken, 'again'), ActivityNotFoundError);
    await assert.rejects(client.activity.complete('not a token!', 'x'), /taskToken: not base64/);
  });

  test('async completion: complete() without a result gives undefined; reportCancellation is refused until the workflow cancels, then a heartbeat throws ActivityCancelledError and the cancellation is recorded', async () => {
    const voidId = uniqueName('async-void');
    const announcedVoid = nextApproval(voidId);
    const voidHandle = await client.workflow.start(approvedAsync, { taskQueue, workflowId: voidId, args: [voidId] });
    await client.activity.complete((await announcedVoid).taskToken);
    assert.equal(await voidHandle.result(), undefined);

    const orderId = uniqueName('async-cancel');
    const announced = nextApproval(orderId);
    const handle = await client.workflow.start(approvedAsync, { taskQueue, workflowId: orderId, args: [orderId] });
    const { taskToken } = await announced;
    await assert.rejects(client.activity.reportCancellation(taskToken), (e: unknown) => e instanceof ServiceError && e.code === 'ActivityNotCancelRequested');
    await handle.cancel();
    await waitFor('the cancellation to reach the activity', async () => (await client.activity.heartbeat(taskToken).then(() => undefined, (e: unknown) => (e instanceof ActivityCancelledError ? true : Promise.reject(e)))));
    await client.activity.reportCancellation(taskToken);
    const error = await handle.result().catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure, `got ${String(error)}: ${String((error as Error).cause)}`);
  });

  test('async completion by workflow id and activity id: fail() fails the activity, and the run with ActivityFailure caused by the ApplicationFailure given', async () => {
    const orderId = uniqueName('async-fail');
    const announced = nextApproval(orderId);
    const handle = await client.workflow.start(approvedAsync, { taskQueue, workflowId: orderId, args: [orderId] });
    const { activityId } = await announced;
    await client.activity.fail({ workflowId: orderId, activityId }, ApplicationFailure.nonRetryable('rejected by ops', 'Rejected'));
    const error = await handle.result().catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError && error.cause instanceof ActivityFailure, `got ${String(error)}`);
    assert.ok(error.cause.cause instanceof ApplicationFailure);
    assert.equal(error.cause.cause.type, 'Rejected');
    assert.equal(error.cause.cause.message, 'rejected by ops');
  });

  test('search attributes in Temporal\'s untyped and typed forms: given at start, read by workflowInfo() and by key, upserted and removed with [], shown by describe and found by a query', async () => {
    const workflowId = uniqueName('retier');
    const seen = await client.workflow.execute(retier, {
      taskQueue, workflowId, searchAttributes: { CustomerTier: ['silver'], Coupon: ['X1'] }, typedSearchAttributes: [{ key: scoreKey, value: 3 }],
    });
    assert.deepEqual(seen.before, { CustomerTier: ['silver'], Coupon: ['X1'], LoyaltyScore: [3] });
    assert.deepEqual(seen.after, { CustomerTier: ['gold'], LoyaltyScore: [7] });
    assert.deepEqual([seen.tier, seen.score, seen.tierAsInt], ['gold', 7, null], 'typed reads by key; a key of another type reads nothing');
    const described = await client.workflow.getHandle(workflowId).describe();
    assert.deepEqual(described.searchAttributes, { CustomerTier: ['gold'], LoyaltyScore: [7] });
    assert.equal(described.typedSearchAttributes.get(scoreKey), 7);
    const found = await waitFor('the run to be listed under its new tier', async () => {
      for await (const info of client.workflow.list({ query: `WorkflowId = '${workflowId}' AND CustomerTier = 'gold'` })) return info;
      return undefined;
    });
    assert.deepEqual(found.searchAttributes, { CustomerTier: ['gold'], LoyaltyScore: [7] });
  });

  test("client.schedule in Temporal's shapes: create with ScheduleOverlapPolicy, describe, update from the description, trigger, backfill, list, delete", async () => {
    const scheduleId = uniqueName('schedule');
    const handle = await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: greet, args: ['schedule'], taskQueue },
      policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE },
      state: { paused: true, note: 'set up' },
    });
    await assert.rejects(client.schedule.create({ scheduleId, spec: { intervals: [{ every: '1 hour' }] }, action: { type: 'startWorkflow', workflowType: 'greet', taskQueue } }), ScheduleAlreadyRunning);
    const created = await handle.describe();
    assert.equal(created.action.workflowType, 'greet');
    assert.equal(created.policies.overlap, 'BUFFER_ONE');
    assert.deepEqual(created.state, { paused: true, note: 'set up', remainingActions: undefined });
    assert.deepEqual(created.spec.intervals, [{ every: 3_600_000, offset: 0 }]);

    await handle.update((previous) => ({ ...previous, spec: { cronExpressions: ['0 9 * * *'], timezone: 'Europe/Paris' } }));
    const updated = await handle.describe();
    assert.deepEqual(updated.spec.cronExpressions, ['0 9 * * *']);
    assert.equal(updated.spec.timezone, 'Europe/Paris');
    assert.equal(updated.state.paused, true, 'update keeps the state it is given back');

    await handle.unpause('go');
    const next = (await handle.describe()).info.nextActionTimes[0];
    assert.ok(next instanceof Date && [7, 8].includes(next.getUTCHours()), `next action at ${next?.toISOString()}: 09:00 in Paris`);
    await handle.trigger();
    const taken = await waitFor('the triggered action', async () => (await handle.describe()).info.recentActions[0]);
    assert.equal(await client.workflow.getHandle(taken.action.workflow.workflowId).result(), 'Hello, schedule!');
    // A day, two days back: one 09:00 in Paris falls in it.
    await handle.backfill({ start: new Date(Date.now() - 2 * 86_400_000), end: new Date(Date.now() - 86_400_000) });
    await waitFor('the backfilled action', async () => ((await handle.describe()).info.recentActions.length >= 2 ? true : undefined));

    let listed: { action?: { workflowType: string } } | undefined;
    for await (const summary of client.schedule.list()) if (summary.scheduleId === scheduleId) listed = summary;
    assert.equal(listed?.action?.workflowType, 'greet');
    await handle.delete();
    await assert.rejects(client.schedule.getHandle(uniqueName('no-such-schedule')).describe(), ScheduleNotFoundError);
  });

  test("client.schedule takes Temporal's calendars (as cron expressions, seconds first) and refuses spec fields and policies it does not have instead of dropping them", async () => {
    const scheduleId = uniqueName('calendar');
    const action = { type: 'startWorkflow' as const, workflowType: greet, taskQueue, args: ['calendar'] };
    const handle = await client.schedule.create({ scheduleId, spec: { calendars: [{ hour: 9, minute: 30, dayOfWeek: 'MONDAY' }], timezone: 'UTC' }, action });
    const described = await handle.describe();
    assert.deepEqual(described.spec.cronExpressions, ['0 30 9 * * 1']);
    const next = described.info.nextActionTimes[0];
    assert.ok(next instanceof Date && next.getUTCDay() === 1 && next.getUTCHours() === 9 && next.getUTCMinutes() === 30, `next action at ${next?.toISOString()}: a Monday 09:30 UTC`);
    await handle.delete();
    await assert.rejects(client.schedule.create({ scheduleId: uniqueName('skip'), spec: { intervals: [{ every: '1h' }], skip: [{ hour: 3 }] } as never, action }), /schedule spec skip: not supported yet/);
    await assert.rejects(client.schedule.create({ scheduleId: uniqueName('pause'), spec: { intervals: [{ every: '1h' }] }, policies: { pauseOnFailure: true } as never, action }), /schedule policies pauseOnFailure: not supported yet/);
    await assert.rejects(client.schedule.create({ scheduleId: uniqueName('year'), spec: { calendars: [{ year: 2030 }] }, action }), /spec\.calendars\[0\]\.year/);
  });

  test("a task queue named with '/' (team/orders) gets its own topics and runs workflows and activities", async () => {
    const slashed = `${taskQueue}/team/orders`;
    const slashWorker = await Worker.create({ connection: workerConnection, taskQueue: slashed, workflowsPath: WORKFLOWS, activities });
    const result = await slashWorker.runUntil(client.workflow.execute(charge, { taskQueue: slashed, workflowId: uniqueName('slashed'), args: ['amex'] }));
    assert.equal(result, 'charged amex');
    const topics = await t.engine.log.admin.listTopics();
    assert.ok(topics.includes(t.engine.catalog.taskTopics('default', slashed).workflow), 'the queue has its own workflow task topic');
  });

  test('Worker.runReplayHistory replays a fetched history with the code that made it, and throws DeterminismViolationError for code that takes another path', async () => {
    const handle = await client.workflow.start(charge, { taskQueue, workflowId: uniqueName('replayed'), args: ['visa'] });
    assert.equal(await handle.result(), 'charged visa');
    const history = await handle.fetchHistory();
    assert.equal(history.events[0]?.attributes.type, 'WorkflowExecutionStarted');
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS }, history);
    await assert.rejects(Worker.runReplayHistory({ workflowsPath: CHANGED_WORKFLOWS }, history), (e: unknown) => e instanceof DeterminismViolationError && /does not replay/.test(e.message));
  });

  test('default signal and query handlers take any name, upsertMemo shows in workflowInfo() and describe, a Trigger wakes the workflow, and allHandlersFinished lets a running update finish first', async () => {
    const handle = await client.workflow.start(generic, { taskQueue, workflowId: uniqueName('generic'), memo: { origin: 'test' } });
    await handle.signal('hello', 1, 'two');
    assert.deepEqual(await handle.query('anything', 'x'), { name: 'anything', args: ['x'], received: 1, memo: { origin: 'test', stage: 'waiting' } });
    assert.equal((await handle.describe()).memo?.stage, 'waiting');
    const update = await handle.startUpdate(slowUpdate, { args: [400], waitForStage: WorkflowUpdateStage.ACCEPTED });
    await handle.signal('finish', 'ada');
    const outcome = await handle.result();
    assert.deepEqual(outcome, { received: ['hello:[1,"two"]', 'finish:["ada"]'], memo: { origin: 'test', stage: 'finished by ada' }, updateFinished: true });
    assert.equal(await update.result(), 'slept');
    assert.deepEqual((await handle.describe()).memo, { origin: 'test', stage: 'finished by ada' });
  });

  test('a Trigger rejects with CancelledFailure when its scope is cancelled: cancelling the run that awaits it cancels the run', async () => {
    const handle = await client.workflow.start(generic, { taskQueue, workflowId: uniqueName('generic-cancelled') });
    await handle.signal('hello');
    await handle.cancel();
    const error = await handle.result().catch((e: unknown) => e);
    assert.ok(error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure, `got ${String(error)}`);
  });

  test("Worker.create warns through the runtime logger of Temporal's options Logbook does not have (interceptors, sinks) instead of dropping them silently", async () => {
    const before = logged.length;
    await Worker.create({ connection: workerConnection, taskQueue: uniqueName('ignored-options'), activities, interceptors: { activity: [] }, sinks: {} } as never);
    const warning = logged.slice(before).find((e) => e.level === 'WARN' && e.message.includes('interceptors, sinks are not supported by Logbook yet and are ignored'));
    assert.ok(warning, `logged: ${logged.slice(before).map((e) => e.message).join(' | ')}`);
  });

  test('Worker.runReplayHistories replays many histories and yields a result per run: none fails with the code that made them, the changed code fails the run it no longer replays', async () => {
    const charged = await client.workflow.start(charge, { taskQueue, workflowId: uniqueName('replayed'), args: ['visa'] });
    const greeted = await client.workflow.start(greet, { taskQueue, workflowId: uniqueName('replayed'), args: ['replay'] });
    await Promise.all([charged.result(), greeted.result()]);
    const histories = [
      { workflowId: charged.workflowId, history: await charged.fetchHistory() },
      { workflowId: greeted.workflowId, history: await greeted.fetchHistory() },
    ];
    const same = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS }, histories)) same.push(result);
    assert.deepEqual(same.map((r) => [r.workflowId, r.error]), [[charged.workflowId, undefined], [greeted.workflowId, undefined]]);
    const changed = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: CHANGED_WORKFLOWS }, histories)) changed.push(result);
    assert.ok(changed[0]?.error instanceof DeterminismViolationError, `got ${String(changed[0]?.error)}`);
    assert.equal(changed[0]?.runId, charged.firstExecutionRunId);
    // The changed module no longer has `greet` at all: that run's result says so.
    assert.ok(changed[1]?.error instanceof Error && /greet/.test(changed[1].error.message), `got ${String(changed[1]?.error)}`);
  });

  test('a handle on an unknown workflow throws WorkflowNotFoundError; a gateway that is not there is a ConnectionError naming the address', async () => {
    const missing = client.workflow.getHandle(uniqueName('missing'));
    await assert.rejects(missing.result(), WorkflowNotFoundError);
    await assert.rejects(missing.describe(), WorkflowNotFoundError);
    // A port that was free a moment ago: nothing answers there.
    const unused = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    await assert.rejects(Connection.connect({ address: `127.0.0.1:${unused}`, connectTimeout: 2_000 }), (e: unknown) => e instanceof ConnectionError && e.message.includes(`127.0.0.1:${unused}`));
    assert.throws(() => Connection.lazy({ address: 'ftp://somewhere' }), /over http or https/);
  });
}
