import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { createHttpApp } from '../http-app.js';
import { EngineMetrics } from '../metrics.js';
import type { LogRecord } from '../../topics/log/log.js';
import { stopTaskBridges, taskBridges } from './task-bridges.js';

/** A raw-view JSON payload, as a worker in another language would build it. */
function jsonPayload(value: unknown): unknown {
  return { metadata: { encoding: { $b64: Buffer.from('json/plain').toString('base64') } }, data: { $b64: Buffer.from(JSON.stringify(value)).toString('base64') } };
}

function decodeJsonPayload(payload: { data: { $b64: string } }): unknown {
  return JSON.parse(Buffer.from(payload.data.$b64, 'base64').toString('utf8'));
}

interface Harness {
  engine: Engine;
  base: string;
  post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> | undefined }>;
  close(): Promise<void>;
}

async function harness(): Promise<Harness> {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-task-endpoints-'));
  const engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2 });
  const app = createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'http://127.0.0.1:0' });
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}/api/v1/namespaces/default/task-queues`;
  return {
    engine,
    base,
    async post(path, body) {
      const response = await fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await stopTaskBridges(engine);
      await engine.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

interface RawTask {
  workflowId: string;
  runId: string;
  scheduledEventId: number;
  attempt: number;
  events: Array<{ eventId: number; attributes: { type: string; [k: string]: unknown } }>;
  activityType?: string;
  input?: Array<{ data: { $b64: string } }>;
}

async function pollUntilTask(h: Harness, path: string, identity: string, options: { decodePayloads?: boolean } = {}): Promise<{ taskToken: string; task: RawTask }> {
  for (let i = 0; i < 10; i++) {
    const polled = await h.post(path, { identity, waitMs: 5_000, ...options });
    if (polled.status === 200) return polled.json as { taskToken: string; task: RawTask };
    assert.equal(polled.status, 204, JSON.stringify(polled.json));
  }
  throw new Error(`no task from ${path}`);
}

test('a worker speaking only HTTP runs a workflow with one activity to completion', async () => {
  const h = await harness();
  try {
    const queue = 'http-only';
    const workflowId = 'greet-1';
    const started = await h.engine.client.start({ workflowId, workflowType: 'greet', taskQueue: queue, args: [{ name: 'Ada' }] });
    assert.equal(started.kind, 'StartAccepted');

    // First workflow task: the whole history so far, payloads lossless.
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'py-worker-1');
    assert.equal(first.task.workflowId, workflowId);
    const startedEvent = first.task.events.find((e) => e.attributes.type === 'WorkflowExecutionStarted')!;
    assert.ok(startedEvent, 'the first task carries WorkflowExecutionStarted');
    const input = (startedEvent.attributes.input as Array<{ data: { $b64: string } }>)[0]!;
    assert.deepEqual(decodeJsonPayload(input), { name: 'Ada' });

    const schedule = {
      type: 'ScheduleActivityTask',
      activityId: '1',
      activityType: 'greet',
      taskQueue: null,
      header: {},
      input: [input],
      scheduleToCloseTimeoutMs: null,
      scheduleToStartTimeoutMs: null,
      startToCloseTimeoutMs: 10_000,
      heartbeatTimeoutMs: null,
      retryPolicy: null,
    };
    const completed = await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [schedule] });
    assert.equal(completed.status, 202, JSON.stringify(completed.json));

    // The activity: poll, heartbeat, complete with a plain JSON result.
    const activity = await pollUntilTask(h, `${queue}/activity-tasks/poll`, 'py-worker-1');
    assert.equal(activity.task.activityType, 'greet');
    assert.deepEqual(decodeJsonPayload(activity.task.input![0]!), { name: 'Ada' });
    const beat = await h.post(`${queue}/activity-tasks/heartbeat`, { taskToken: activity.taskToken, details: { progress: 1 } });
    assert.deepEqual(beat, { status: 200, json: { cancelRequested: false } });
    const done = await h.post(`${queue}/activity-tasks/complete`, { taskToken: activity.taskToken, result: 'Hello, Ada' });
    assert.equal(done.status, 202, JSON.stringify(done.json));

    // Second workflow task: the activity's result; complete the workflow with it.
    const second = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'py-worker-1');
    const activityCompleted = second.task.events.find((e) => e.attributes.type === 'ActivityTaskCompleted');
    assert.ok(activityCompleted, `second task has ActivityTaskCompleted: ${second.task.events.map((e) => e.attributes.type).join(', ')}`);
    const greeting = decodeJsonPayload(activityCompleted.attributes.result as { data: { $b64: string } });
    assert.equal(greeting, 'Hello, Ada');
    const finished = await h.post(`${queue}/workflow-tasks/complete`, { taskToken: second.taskToken, commands: [{ type: 'CompleteWorkflowExecution', result: jsonPayload({ greeting }) }] });
    assert.equal(finished.status, 202, JSON.stringify(finished.json));

    const reply = await h.engine.client.send(h.engine.client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true });
    assert.equal(reply?.kind, 'Result', JSON.stringify(reply));
    assert.equal(reply.executionStatus, 'Completed');
    assert.deepEqual(h.engine.dataConverter.fromPayload(reply.payload!), { greeting: 'Hello, Ada' });
  } finally {
    await h.close();
  }
});

test('an activity poll with decodePayloads hands over the arguments as JSON values, and bytes that are not JSON as $b64', async () => {
  const h = await harness();
  try {
    const queue = 'decoded-queue';
    await h.engine.client.start({ workflowId: 'decoded-1', workflowType: 'greet', taskQueue: queue, args: [] });
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    const bytes = { metadata: { encoding: { $b64: Buffer.from('binary/plain').toString('base64') } }, data: { $b64: Buffer.from([0xff, 0x00]).toString('base64') } };
    const input = [jsonPayload({ name: 'Ada', tags: ['x'] }), jsonPayload(null), bytes];
    const schedule = { type: 'ScheduleActivityTask', activityId: '1', activityType: 'greet', taskQueue: null, header: { trace: jsonPayload('t-1') }, input, scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 10_000, heartbeatTimeoutMs: null, retryPolicy: null };
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [schedule] })).status, 202);

    const refused = await h.post(`${queue}/activity-tasks/poll`, { identity: 'w', waitMs: 10, decodePayloads: 'yes' });
    assert.equal(refused.status, 400);
    assert.match(String(refused.json?.message), /'decodePayloads' must be true or false/);

    const activity = await pollUntilTask(h, `${queue}/activity-tasks/poll`, 'w', { decodePayloads: true });
    const task = activity.task as unknown as { input: unknown[]; header: Record<string, unknown>; heartbeatDetails: unknown; activityType: string };
    assert.deepEqual(task.input, [{ name: 'Ada', tags: ['x'] }, null, { $b64: '/wA=' }]);
    assert.deepEqual(task.header, { trace: 't-1' });
    assert.equal(task.heartbeatDetails, null);
    assert.equal(task.activityType, 'greet');
    assert.equal((await h.post(`${queue}/activity-tasks/complete`, { taskToken: activity.taskToken, result: 'ok' })).status, 202);
  } finally {
    await h.close();
  }
});

test('a poll with nothing to do answers 204 after waitMs; bad tokens and bodies answer 400 naming the problem', async () => {
  const h = await harness();
  try {
    const began = Date.now();
    const empty = await h.post('idle-queue/workflow-tasks/poll', { identity: 'w', waitMs: 300 });
    assert.equal(empty.status, 204);
    assert.ok(Date.now() - began >= 250, 'the poll waited');
    assert.equal((await h.post('idle-queue/activity-tasks/poll', { identity: 'w', waitMs: 100 })).status, 204);

    const garbage = await h.post('idle-queue/workflow-tasks/complete', { taskToken: 'not-a-token', commands: [] });
    assert.equal(garbage.status, 400);
    assert.equal(garbage.json?.code, 'INVALID_TASK_TOKEN');
    assert.match(String(garbage.json?.message), /taskToken/);

    const missing = await h.post('idle-queue/activity-tasks/complete', { result: 1 });
    assert.equal(missing.status, 400);
    assert.match(String(missing.json?.message), /taskToken/);

    const token = taskBridges(h.engine).signer.sign(Buffer.from(JSON.stringify({ v: 1, kind: 'workflow', namespace: 'default', taskQueue: 'idle-queue', workflowId: 'x', runId: 'r', scheduledEventId: 2, attempt: 1, identity: 'w', partition: 0, offset: 0 })).toString('base64url'));
    const wrongKind = await h.post('idle-queue/activity-tasks/heartbeat', { taskToken: token });
    assert.equal(wrongKind.status, 400);
    assert.match(String(wrongKind.json?.message), /workflow task token/);
    const wrongQueue = await h.post('other-queue/workflow-tasks/complete', { taskToken: token, commands: [] });
    assert.equal(wrongQueue.status, 403, "a queue's token answers no other queue's task");
    assert.match(String(wrongQueue.json?.message), /idle-queue/);

    const noCommands = await h.post('idle-queue/workflow-tasks/complete', { taskToken: token });
    assert.equal(noCommands.status, 400);
    assert.match(String(noCommands.json?.message), /commands/);
    const badCommand = await h.post('idle-queue/workflow-tasks/complete', { taskToken: token, commands: [{ type: 'StartTimer', timerId: 't' }] });
    assert.equal(badCommand.status, 400);
    assert.match(String(badCommand.json?.message), /startToFireTimeoutMs/);
    const badFailure = await h.post('idle-queue/workflow-tasks/fail', { taskToken: token, cause: 'Oops', failure: { message: 'x' } });
    assert.equal(badFailure.status, 400);
    assert.match(String(badFailure.json?.message), /cause/);

    const noIdentity = await h.post('idle-queue/workflow-tasks/poll', { waitMs: 10 });
    assert.equal(noIdentity.status, 400);
    assert.match(String(noIdentity.json?.message), /identity/);
    const badWait = await h.post('idle-queue/workflow-tasks/poll', { identity: 'w', waitMs: 'soon' });
    assert.equal(badWait.status, 400);
    assert.match(String(badWait.json?.message), /waitMs/);
    const badQueue = await h.post('bad.queue/workflow-tasks/poll', { identity: 'w', waitMs: 10 });
    assert.equal(badQueue.status, 400, JSON.stringify(badQueue.json));
  } finally {
    await h.close();
  }
});

test('a heartbeat reports the cancellation the workflow requested, and the worker acknowledges it', async () => {
  const h = await harness();
  try {
    const queue = 'cancel-queue';
    const workflowId = 'cancel-1';
    await h.engine.client.start({ workflowId, workflowType: 'slow', taskQueue: queue, args: [] });
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    const schedule = { type: 'ScheduleActivityTask', activityId: '1', activityType: 'slow', taskQueue: null, header: {}, input: [], scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: null, retryPolicy: null };
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [schedule] })).status, 202);
    const activity = await pollUntilTask(h, `${queue}/activity-tasks/poll`, 'w');

    // A signal wakes the workflow, which asks to cancel the running activity.
    const signal = { type: 'SignalWorkflowExecution' as const, signalName: 'stop', input: [], identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
    await h.engine.client.send(h.engine.client.envelope('default', workflowId, signal), { awaitReply: true });
    const second = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    const cancel = { type: 'RequestCancelActivityTask', scheduledEventId: activity.task.scheduledEventId };
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: second.taskToken, commands: [cancel] })).status, 202);

    let cancelRequested = false;
    for (let i = 0; i < 50 && !cancelRequested; i++) {
      const beat = await h.post(`${queue}/activity-tasks/heartbeat`, { taskToken: activity.taskToken });
      assert.equal(beat.status, 200, JSON.stringify(beat.json));
      cancelRequested = beat.json?.cancelRequested === true;
      if (!cancelRequested) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(cancelRequested, 'the heartbeat saw the cancellation');
    assert.equal((await h.post(`${queue}/activity-tasks/canceled`, { taskToken: activity.taskToken })).status, 202);
    const third = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    assert.ok(third.task.events.some((e) => e.attributes.type === 'ActivityTaskCanceled'), third.task.events.map((e) => e.attributes.type).join(', '));
  } finally {
    await h.close();
  }
});

test('a task redelivered to the bridge while a poller holds its attempt is not handed out again: the engine refuses the second claim', async () => {
  const h = await harness();
  try {
    const queue = 'redelivered-queue';
    await h.engine.client.start({ workflowId: 'held-1', workflowType: 'greet', taskQueue: queue, args: [] });
    const held = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'http-worker');

    // Play a redelivery: the task's record comes back, as it does when a bridge that read it leaves the group.
    const { log, catalog } = h.engine.workerConnection();
    const topic = catalog.taskTopics('default', queue).workflow;
    const records: LogRecord[] = [];
    const partitions = (await log.admin.describeTopics([topic])).get(topic)!.partitions;
    for (let partition = 0; partition < partitions; partition++) {
      await log.readPartition(topic, partition, 0, (batch) => void records.push(...batch.filter((r) => r.value?.length)));
    }
    assert.equal(records.length, 1, 'one workflow task was dispatched');
    await (await log.producer()).send(records.map((r) => ({ topic, partition: r.partition, key: r.key, value: r.value })));

    // The same identity on purpose: another delivery is another claim, whatever the poller calls itself.
    const again = await h.post(`${queue}/workflow-tasks/poll`, { identity: 'http-worker', waitMs: 1_500 });
    assert.equal(again.status, 204, `the redelivered task was not handed out: ${JSON.stringify(again.json)}`);
    const completed = await h.post(`${queue}/workflow-tasks/complete`, { taskToken: held.taskToken, commands: [{ type: 'CompleteWorkflowExecution', result: jsonPayload('done') }] });
    assert.equal(completed.status, 202);
    const reply = await h.engine.client.send(h.engine.client.envelope('default', 'held-1', { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true });
    assert.equal(reply?.executionStatus, 'Completed');
  } finally {
    await h.close();
  }
});

test('a worker speaking only HTTP answers a query: the query poll hands it over with a token, the answer reaches the asker, and a failure answer is the asker\'s error', async () => {
  const h = await harness();
  try {
    const queue = 'http-queries';
    await h.engine.client.start({ workflowId: 'asked-1', workflowType: 'greet', taskQueue: queue, args: [] });
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'py-worker-1');
    const timer = { type: 'StartTimer', timerId: '1', startToFireTimeoutMs: 3_600_000 };
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [timer] })).status, 202);
    const workflows = h.base.replace(/\/task-queues$/, '/workflows');
    const ask = (name: string) => fetch(`${workflows}/asked-1/query/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ args: ['x'] }) });

    const asking = ask('stage');
    const polled = (await pollUntilTask(h, `${queue}/query-tasks/poll`, 'py-worker-1')) as unknown as { taskToken: string; task: { queryType: string; workflowId: string; args: Array<{ data: { $b64: string } }> } };
    assert.equal(polled.task.queryType, 'stage');
    assert.equal(polled.task.workflowId, 'asked-1');
    assert.equal(decodeJsonPayload(polled.task.args[0]!), 'x');
    assert.equal((await h.post(`${queue}/query-tasks/answer`, { taskToken: polled.taskToken, result: { stage: 'waiting' } })).status, 202);
    const answered = await asking;
    assert.equal(answered.status, 200);
    assert.deepEqual(((await answered.json()) as { result: unknown }).result, { stage: 'waiting' });

    const failing = ask('nope');
    const second = (await pollUntilTask(h, `${queue}/query-tasks/poll`, 'py-worker-1')) as unknown as { taskToken: string };
    assert.equal((await h.post(`${queue}/query-tasks/answer`, { taskToken: second.taskToken, failure: { message: "no query handler named 'nope'", type: 'QueryNotFound' } })).status, 202);
    const refused = await failing;
    assert.equal(refused.status, 400, 'a failed query is the query\'s problem (a worker\'s own code becomes QueryFailed)');
    assert.match(await refused.text(), /QueryNotFound: no query handler named 'nope'/);
  } finally {
    await h.close();
  }
});

test('query answers that break a rule are refused naming it: both a result and a failure, or a workflow-task token (400); a token of another queue (403)', async () => {
  const h = await harness();
  try {
    const queue = 'http-query-rules';
    await h.engine.client.start({ workflowId: 'rules-1', workflowType: 'greet', taskQueue: queue, args: [] });
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    const workflowsOf = h.base.replace(/\/task-queues$/, '/workflows');
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [] })).status, 202);
    const asking = fetch(`${workflowsOf}/rules-1/query/stage?timeout=2s`, { method: 'POST' });
    asking.catch(() => undefined);
    const polled = (await pollUntilTask(h, `${queue}/query-tasks/poll`, 'w')) as unknown as { taskToken: string };

    const both = await h.post(`${queue}/query-tasks/answer`, { taskToken: polled.taskToken, result: 1, failure: { message: 'x' } });
    assert.equal(both.status, 400);
    assert.match(String(both.json?.message), /'failure' or a result/);
    const workflowToken = await h.post(`${queue}/query-tasks/answer`, { taskToken: first.taskToken, result: 1 });
    assert.equal(workflowToken.status, 400);
    assert.match(String(workflowToken.json?.message), /not a query token/);
    const otherQueue = await h.post('another-queue/query-tasks/answer', { taskToken: polled.taskToken, result: 1 });
    assert.equal(otherQueue.status, 403);
    assert.match(String(otherQueue.json?.message), /belongs to task queue 'http-query-rules'/);
    const noIdentity = await h.post(`${queue}/query-tasks/poll`, { waitMs: 0 });
    assert.equal(noIdentity.status, 400);
    assert.match(String(noIdentity.json?.message), /identity/);
    await asking.catch(() => undefined);
  } finally {
    await h.close();
  }
});

test('a forged or edited task token is refused with 403 and writes nothing: a token read from one task cannot be rewritten to answer another run, attempt or queue', async () => {
  const h = await harness();
  try {
    const queue = 'signed-queue';
    await h.engine.client.start({ workflowId: 'signed-1', workflowType: 'greet', taskQueue: queue, args: [] });
    const first = await pollUntilTask(h, `${queue}/workflow-tasks/poll`, 'w');
    const [payload, signature] = first.taskToken.split('.') as [string, string];
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const edit = (changes: Record<string, unknown>) => `${Buffer.from(JSON.stringify({ ...data, ...changes })).toString('base64url')}.${signature}`;
    for (const forged of [edit({ workflowId: 'someone-else' }), edit({ attempt: 7 }), edit({ taskQueue: 'other' }), `${payload}.${Buffer.from('x'.repeat(32)).toString('base64url')}`]) {
      const answer = await h.post(`${queue}/workflow-tasks/complete`, { taskToken: forged, commands: [] });
      assert.equal(answer.status, 403, JSON.stringify(answer.json));
      assert.equal(answer.json?.code, 'INVALID_TASK_TOKEN');
      assert.match(String(answer.json?.message), /does not carry this deployment's signature/);
    }
    // An unsigned token of the old form is not taken either.
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: payload, commands: [] })).status, 400);
    // The genuine token still answers its task: nothing above was written.
    assert.equal((await h.post(`${queue}/workflow-tasks/complete`, { taskToken: first.taskToken, commands: [] })).status, 202);
  } finally {
    await h.close();
  }
});
