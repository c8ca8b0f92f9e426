import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { createHttpApp } from '../http-app.js';
import { EngineMetrics } from '../metrics.js';
import { waitFor } from '../../test/support/test-env.js';
import { SchedulerSignal, schedulerWorkflowId } from '../../sdk/schedules/scheduler-protocol.js';
import { ScheduleWorkers } from './schedule-workers.js';

/** The schedule routes on an embedded engine with its scheduler workers: statuses, errors and what describe shows. */

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

describe('schedule HTTP routes', () => {
  let directory: string;
  let engine: Engine;
  let workers: ScheduleWorkers;
  let server: Server;
  let base: string;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'logbook-schedule-routes-'));
    engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2 });
    workers = await ScheduleWorkers.start(engine);
    server = createServer(createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: 'http://127.0.0.1:0' }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/namespaces/default/schedules`;
  });
  after(async () => {
    await workers.stop(1_000);
    server.close();
    await engine.stop();
    await rm(directory, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  // Hourly, so no action is taken while the tests look at it.
  const hourly = (scheduleId: string, extra: object = {}) => ({
    scheduleId,
    spec: { cronExpressions: ['0 * * * *'] },
    action: { workflowType: 'report', taskQueue: 'reports', args: ['eu'] },
    ...extra,
  });

  test('POST creates a schedule (201) that GET describes with its defaults and next action times; a second POST of the id is 409', async () => {
    assert.deepEqual(await call('POST', '', hourly('hourly-report')), { status: 201, json: { scheduleId: 'hourly-report' } });
    const described = await call('GET', '/hourly-report');
    assert.equal(described.status, 200);
    const { schedule, info, scheduleId } = described.json as { scheduleId: string; schedule: Record<string, Record<string, unknown>>; info: Record<string, unknown> };
    assert.equal(scheduleId, 'hourly-report');
    assert.deepEqual(schedule.policies, { overlap: 'SKIP', catchupWindowMs: 365 * 86_400_000 });
    assert.deepEqual(schedule.state, { paused: false, note: '', remainingActions: null });
    assert.equal(schedule.action!.workflowId, 'hourly-report');
    const next = info.nextActionTimes as string[];
    assert.equal(next.length, 5);
    for (const [i, time] of next.entries()) {
      assert.equal(Date.parse(time) % 3_600_000, 0, time);
      if (i > 0) assert.equal(Date.parse(time) - Date.parse(next[i - 1]!), 3_600_000);
    }
    const again = await call('POST', '', hourly('hourly-report'));
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'ScheduleAlreadyRunning');
  });

  test('invalid definitions are refused with 400 naming the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...hourly('x'), scheduleId: undefined }, /'scheduleId' must be a non-empty string/],
      [hourly('x', { spec: { cronExpressions: ['61 * * * *'] } }), /spec.cronExpressions\[0\].*minute: 61 is out of range 0-59/],
      [hourly('x', { spec: {} }), /at least one of 'intervals' or 'cronExpressions'/],
      [hourly('x', { action: { taskQueue: 'q' } }), /'action.workflowType'/],
      [hourly('x', { policies: { overlap: 'NEVER' } }), /'policies.overlap' must be one of/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '', body);
      assert.equal(answer.status, 400, JSON.stringify(answer.json));
      assert.equal(answer.json.code, 'INVALID_SCHEDULE');
      assert.match(String(answer.json.message), message);
    }
  });

  test('every operation on an unknown schedule is 404 ScheduleNotFound', async () => {
    const answers = [
      await call('GET', '/nobody'),
      await call('POST', '/nobody/pause', {}),
      await call('POST', '/nobody/unpause', {}),
      await call('POST', '/nobody/trigger', {}),
      await call('POST', '/nobody/backfill', { startAt: '2026-01-01T00:00:00Z', endAt: '2026-01-01T01:00:00Z' }),
      await call('PUT', '/nobody', hourly('nobody')),
      await call('DELETE', '/nobody'),
    ];
    for (const answer of answers) assert.deepEqual([answer.status, answer.json.code], [404, 'ScheduleNotFound']);
  });

  test('pause and unpause record the note; PUT replaces the spec and keeps the paused state', async () => {
    await call('POST', '', hourly('changing'));
    assert.equal((await call('POST', '/changing/pause', { note: 'holidays' })).status, 202);
    const paused = (await call('GET', '/changing')).json as { schedule: { state: { paused: boolean; note: string } }; info: { nextActionTimes: string[] } };
    assert.deepEqual(paused.schedule.state, { paused: true, note: 'holidays', remainingActions: null });
    assert.deepEqual(paused.info.nextActionTimes, []);
    assert.equal((await call('PUT', '/changing', { spec: { intervals: [{ every: '1d' }] }, action: { workflowType: 'digest', taskQueue: 'mail' } })).status, 200);
    const updated = (await call('GET', '/changing')).json as { schedule: { spec: { intervals: unknown[]; cronExpressions: unknown[] }; action: { workflowType: string }; state: { paused: boolean } }; info: { lastUpdatedAt: string | null } };
    assert.deepEqual(updated.schedule.spec.intervals, [{ everyMs: 86_400_000, offsetMs: 0 }]);
    assert.deepEqual(updated.schedule.spec.cronExpressions, []);
    assert.equal(updated.schedule.action.workflowType, 'digest');
    assert.equal(updated.schedule.state.paused, true);
    assert.ok(updated.info.lastUpdatedAt);
    assert.equal((await call('POST', '/changing/unpause', {})).status, 202);
    const resumed = (await call('GET', '/changing')).json as { schedule: { state: { paused: boolean; note: string } }; info: { nextActionTimes: string[] } };
    assert.deepEqual([resumed.schedule.state.paused, resumed.schedule.state.note], [false, 'holidays']);
    assert.equal(resumed.info.nextActionTimes.length, 5);
    const badUpdate = await call('PUT', '/changing', { spec: { intervals: [{ every: '1d' }] }, action: { workflowType: 'digest', taskQueue: 'mail' }, policies: { catchupWindow: '1s' } });
    assert.deepEqual([badUpdate.status, badUpdate.json.code], [400, 'INVALID_SCHEDULE']);
  });

  test('trigger and backfill validate their overlap policy and range', async () => {
    await call('POST', '', hourly('checked'));
    const badTrigger = await call('POST', '/checked/trigger', { overlap: 'MAYBE' });
    assert.deepEqual([badTrigger.status, badTrigger.json.code], [400, 'INVALID_SCHEDULE']);
    const backwards = await call('POST', '/checked/backfill', { startAt: '2026-01-02T00:00:00Z', endAt: '2026-01-01T00:00:00Z' });
    assert.equal(backwards.status, 400);
    assert.match(String(backwards.json.message), /'backfill.endAt' is before 'backfill.startAt'/);
    const badTime = await call('POST', '/checked/backfill', { backfills: [{ startAt: 'yesterday', endAt: '2026-01-01T00:00:00Z' }] });
    assert.match(String(badTime.json.message), /'backfills\[0\].startAt' must be an RFC 3339 time/);
  });

  test('malformed signals sent to a scheduler around the API are ignored: the schedule keeps its definition and still answers', async () => {
    await call('POST', '', hourly('sturdy'));
    const signal = async (signalName: string, args: unknown[]) => {
      const body = { type: 'SignalWorkflowExecution' as const, signalName, input: args.map((a) => engine.dataConverter.toPayload(a)), identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
      const reply = await engine.client.send(engine.client.envelope('default', schedulerWorkflowId('sturdy'), body), { awaitReply: true });
      assert.notEqual(reply?.kind, 'Error', reply?.failure?.message);
    };
    await signal(SchedulerSignal.update, [{ spec: 'every day' }]);
    await signal(SchedulerSignal.backfill, ['yesterday']);
    await signal(SchedulerSignal.trigger, ['WHENEVER']);
    const described = (await call('GET', '/sturdy')).json as { schedule: { spec: { cronExpressions: string[] } }; info: { numActions: number; bufferedStarts: number } };
    assert.deepEqual(described.schedule.spec.cronExpressions, ['0 * * * *']);
    assert.deepEqual([described.info.numActions, described.info.bufferedStarts], [0, 0]);
    assert.equal((await call('POST', '/sturdy/pause', { note: 'still here' })).status, 202);
    const paused = (await call('GET', '/sturdy')).json as { schedule: { state: { note: string } } };
    assert.equal(paused.schedule.state.note, 'still here');
  });

  test('GET lists the schedules; DELETE removes one (then 404, and no longer listed)', async () => {
    await call('POST', '', hourly('listed-a'));
    await call('POST', '', hourly('listed-b', { action: { workflowType: 'digest', taskQueue: 'mail' } }));
    const listed = (await call('GET', '')).json.schedules as Array<{ scheduleId: string; workflowType: string }>;
    assert.deepEqual(
      listed.filter((s) => s.scheduleId.startsWith('listed-')).map((s) => [s.scheduleId, s.workflowType]).sort(),
      [['listed-a', 'report'], ['listed-b', 'digest']],
    );
    assert.deepEqual(await call('DELETE', '/listed-a'), { status: 200, json: { scheduleId: 'listed-a', deleted: true } });
    assert.equal((await call('GET', '/listed-a')).status, 404);
    // The scheduler ends when it has handled the delete signal: then it is no longer listed.
    const listedIds = async () => ((await call('GET', '')).json.schedules as Array<{ scheduleId: string }>).map((s) => s.scheduleId).filter((id) => id.startsWith('listed-'));
    await waitFor('listed-a to leave the list', async () => (await listedIds()).length === 1, 10_000);
    assert.deepEqual(await listedIds(), ['listed-b']);
    // A deleted schedule's id can be used again.
    assert.equal((await call('POST', '', hourly('listed-a'))).status, 201);
  });

  test('a schedule in an unregistered namespace is refused with 404 NamespaceNotFound; once the namespace is registered its scheduler worker starts and answers describe', async () => {
    const inTenant = (path: string, init?: RequestInit) => fetch(base.replace('/namespaces/default/', '/namespaces/tenant/') + path, init);
    const create = () => inTenant('', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(hourly('tenant-report')) });
    const refused = await create();
    assert.equal(refused.status, 404);
    assert.equal(((await refused.json()) as { code: string }).code, 'NamespaceNotFound');
    assert.deepEqual(workers.namespaces(), ['default']);

    const registered = await fetch(base.replace('/namespaces/default/schedules', '/namespaces'), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'tenant' }),
    });
    assert.equal(registered.status, 201);
    await waitFor('a scheduler worker for the new namespace', async () => workers.namespaces().includes('tenant'), 10_000);
    assert.equal((await create()).status, 201);
    const described = await inTenant('/tenant-report');
    assert.equal(described.status, 200, 'the tenant namespace\'s scheduler answered the describe query');
  });

  test('a deprecated namespace\'s schedules take no more actions: each refused start is counted with its reason, not as an overlap', async () => {
    const namespaces = base.replace('/namespaces/default/schedules', '/namespaces');
    const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await fetch(namespaces, { method: 'POST', ...json({ name: 'frozen' }) })).status, 201);
    await waitFor('a scheduler worker for the new namespace', async () => workers.namespaces().includes('frozen'), 10_000);
    const schedules = `${namespaces}/frozen/schedules`;
    const every = { scheduleId: 'ticker', spec: { intervals: [{ every: '1s' }] }, action: { workflowType: 'report', taskQueue: 'nobody' }, policies: { overlap: 'ALLOW_ALL' } };
    assert.equal((await fetch(schedules, { method: 'POST', ...json(every) })).status, 201);
    type Info = { numActions: number; numActionsSkippedOverlap: number; numActionsFailedToStart: number; lastFailedStart: string | null };
    const info = async () => ((await (await fetch(`${schedules}/ticker`)).json()) as { info: Info }).info;
    await waitFor('a first action', async () => (await info()).numActions >= 1, 15_000);
    assert.equal((await fetch(`${namespaces}/frozen`, { method: 'PATCH', ...json({ state: 'Deprecated' }) })).status, 200);
    const refused = await waitFor('a refused start', async () => {
      const now = await info();
      return now.numActionsFailedToStart >= 1 ? now : undefined;
    }, 15_000);
    assert.match(refused.lastFailedStart ?? '', /namespace frozen is deprecated/);
    assert.equal(refused.numActionsSkippedOverlap, 0);
  });
});
