import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { addressOf, serveGateway } from '../test/support/http-gateway.js';
import { Engine } from './engine.js';
import { MAX_JSON_DEPTH, jsonNestingDepth } from './json-body.js';
import { encodeTaskToken } from './task-endpoints/task-token.js';
import { taskBridges } from './task-endpoints/task-bridges.js';
import { stopTaskBridges } from './task-endpoints/task-bridges.js';
import { waitMsOf } from './task-endpoints/wire-values.js';

/**
 * Input the HTTP API must refuse with a 4xx naming the rule (before anything is written), each
 * of them once answered 500, a useless 503 or an instant 504. On the embedded backend, no workers:
 * a started run stays Running with its first two events.
 */

type Answer = { status: number; json: { code?: string; message?: string; runId?: string } };

let directory: string;
let engine: Engine;
let server: Server;
let base: string;

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<Answer> {
  const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(text === undefined ? {} : { body: text }) });
  return { status: response.status, json: (await response.json().catch(() => ({}))) as Answer['json'] };
}

/** Asserts `answer` is a 400 with `code` whose message matches. */
function refused(answer: Answer, message: RegExp, code = 'INVALID_ARGUMENT'): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.json));
  assert.equal(answer.json.code, code);
  assert.match(answer.json.message ?? '', message);
}

const start = (overrides: Record<string, unknown> = {}) => ({ workflowId: `w-${Math.random().toString(36).slice(2)}`, workflowType: 'idle', taskQueue: 'nobody', ...overrides });
const WF = '/api/v1/namespaces/default/workflows';

before(async () => {
  directory = await mkdtemp(join(tmpdir(), 'logbook-refusals-'));
  engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2 });
  server = await serveGateway(engine);
  base = addressOf(server);
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(engine);
  await engine.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('names that become parts of topic names, and identifiers', () => {
  test('a namespace or task queue that cannot be part of a topic name is a 400 on every route that names one', async () => {
    refused(await call('POST', '/api/v1/namespaces/a.b/workflows', start()), /^namespace 'a\.b' may contain only letters, digits, '_' and '-'/);
    refused(await call('GET', '/api/v1/namespaces/a.b/workflows/x'), /^namespace 'a\.b'/);
    refused(await call('POST', `/api/v1/namespaces/${'n'.repeat(65)}/workflows`, start()), /is 65 characters long; at most 64 are allowed/);
    refused(await call('POST', WF, start({ taskQueue: 'q'.repeat(129) })), /^taskQueue '.*' is 129 characters long; at most 128 are allowed/);
    refused(await call('POST', '/api/v1/namespaces/default/task-queues/..%2F..%2Fq/activity-tasks/poll', { identity: 'x', waitMs: 0 }), /^taskQueue '\.\.\/\.\.\/q' may contain only/);
    refused(await call('POST', '/api/v1/namespaces', { name: 'has.dot' }), /^name 'has\.dot' may contain only/);
    refused(await call('POST', '/api/v1/namespaces/default/schedules', { scheduleId: 's1', spec: { intervals: [{ every: '1h' }] }, action: { workflowType: 't', taskQueue: 'a.b', workflowId: 'x' } }), /^action\.taskQueue 'a\.b'/, 'INVALID_SCHEDULE');
  });

  test('a workflow id, type, signal, query or update name, request or run id with a control character or over 1000 bytes is a 400', async () => {
    refused(await call('POST', WF, start({ workflowId: 'a\nb' })), /^workflowId 'a\\nb' contains the control character U\+000A at index 1/);
    refused(await call('POST', WF, start({ workflowType: 'é'.repeat(501) })), /^workflowType '.*' is 1002 bytes long \(UTF-8\); at most 1000 are allowed/);
    refused(await call('POST', WF, start({ requestId: '' })), /^requestId must be a non-empty string/);
    refused(await call('POST', `${WF}/a%00b/signals/go`, {}), /^workflowId .* control character U\+0000/);
    refused(await call('POST', `${WF}/w/signals/go%07`, {}), /^signalName .* control character U\+0007/);
    refused(await call('POST', `${WF}/w/signals/go`, { runId: 'r\t' }), /^runId .* control character U\+0009/);
    refused(await call('POST', `${WF}/w/query/${'q'.repeat(1001)}`, {}), /^queryType .* 1001 bytes long/);
    refused(await call('POST', `${WF}/w/update/add%1B`, {}), /^update name .* control character U\+001B/);
  });

  test("a workflow, update or schedule id '.' or '..' (no URL path can carry it) is a 400, where a read of it once answered 500 from the listing it reached", async () => {
    refused(await call('POST', WF, start({ workflowId: '..' })), /^workflowId may not be '\.' or '\.\.': URL paths cannot carry them/);
    refused(await call('POST', `${WF}/w/update/add`, { updateId: '.' }), /^updateId may not be '\.' or '\.\.'/);
    refused(await call('POST', '/api/v1/namespaces/default/schedules', { scheduleId: '..', spec: { intervals: [{ every: '1h' }] }, action: start() }), /^scheduleId may not be '\.' or '\.\.'/, 'INVALID_SCHEDULE');
  });

  test('a Datetime search attribute no JavaScript Date holds is refused at start, so listings never fail on it', async () => {
    refused(await call('POST', WF, start({ searchAttributes: { Due: { type: 'Datetime', value: 9e15 } } })), /search attribute 'Due' \(Datetime\) has value 9000000000000000 that does not fit its type/);
  });
});

describe('durations, policies and waits', () => {
  test('a timeout past 100 years, or that is not a duration, is a 400 naming the field, not a 500 ENCODE_INVALID_VALUE', async () => {
    refused(await call('POST', WF, start({ workflowExecutionTimeout: '1000000000d' })), /^workflowExecutionTimeout: "1000000000d" is 86400000000000000 ms; a duration must be from 0 to 100 years \(3155760000000 ms\)$/);
    refused(await call('POST', WF, start({ workflowRunTimeout: 1e21 })), /^workflowRunTimeout: 1e\+21 is 1e\+21 ms; a duration must be from 0 to 100 years/);
    refused(await call('POST', WF, start({ workflowTaskTimeout: 'soon' })), /^workflowTaskTimeout: invalid duration "soon"/);
    refused(await call('POST', WF, start({ retryPolicy: { maximumAttempts: 2 ** 31 } })), /^retryPolicy\.maximumAttempts must be a whole number from 0 to 2147483647/);
  });

  test('a policy that is none of its values is a 400 naming the allowed values, not a 500 ENCODE_INVALID_VALUE', async () => {
    refused(await call('POST', WF, start({ workflowIdConflictPolicy: 'bogus' })), /^workflowIdConflictPolicy must be one of Fail, UseExisting, TerminateExisting, got "bogus"$/);
    refused(await call('POST', WF, start({ workflowIdReusePolicy: 3 })), /^workflowIdReusePolicy must be one of AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate, got 3$/);
  });

  test('a wait over one hour is refused with 400 (result, update, query), where it used to answer at once with 504', async () => {
    const { json } = await call('POST', WF, start());
    const id = (json as { workflowId?: string }).workflowId;
    refused(await call('GET', `${WF}/${id}/result?timeout=99999h`), /^timeout: "99999h" is 359996400000 ms; a request waits at most 1h \(3600000 ms\), ask again to wait longer$/);
    refused(await call('GET', `${WF}/${id}/result?timeout=9007199254740000`), /^timeout: "9007199254740000" is 9007199254740000 ms; a request waits at most 1h/);
    refused(await call('POST', `${WF}/${id}/update/add`, { timeout: '2h' }), /^timeout: "2h" is 7200000 ms; a request waits at most 1h/);
    refused(await call('GET', `${WF}/${id}/updates/u1?timeout=61m`), /^timeout: "61m" is 3660000 ms/);
    refused(await call('POST', `${WF}/${id}/query/status`, { timeout: '1d' }), /^timeout: "1d" is 86400000 ms/);
    refused(await call('GET', `${WF}/${id}/result?timeout=abc`), /^timeout: invalid duration "abc"/);
  });

  test('a task poll waits at most 60 s, whatever waitMs asks', () => {
    assert.deepEqual([waitMsOf(undefined), waitMsOf(1_500), waitMsOf(1e12), waitMsOf(Number.MAX_SAFE_INTEGER)], [20_000, 1_500, 60_000, 60_000]);
  });

  test('untilEventId past the run’s end is a 400 naming its last event id, at once, instead of 503 HISTORY_NOT_INDEXED after a wait', async () => {
    const { json } = await call('POST', WF, start());
    const id = (json as { workflowId?: string }).workflowId;
    const began = Date.now();
    refused(await call('GET', `${WF}/${id}/history?untilEventId=500`), new RegExp(`^untilEventId 500 is past the end of run ${json.runId}: its last event is 2$`));
    assert.ok(Date.now() - began < 2_000, 'answered without waiting for the index');
    refused(await call('GET', `${WF}/${id}/history?untilEventId=abc`), /^untilEventId must be a positive integer event id, got NaN$/);
    const upToEnd = await call('GET', `${WF}/${id}/history?untilEventId=2`);
    assert.equal(upToEnd.status, 200);
    // An older run (terminated, then the workflow id started again): its end is known from its row.
    assert.equal((await call('POST', `${WF}/${id}/terminate`, {})).status, 202);
    assert.equal((await call('POST', WF, start({ workflowId: id }))).status, 201);
    refused(await call('GET', `${WF}/${id}/history?runId=${json.runId}&untilEventId=50`), new RegExp(`^untilEventId 50 is past the end of run ${json.runId}: its last event is 3$`));
  });
});

describe('requests express could not read, once 500s', () => {
  test('a malformed percent-escape in the path is a 400 naming it', async () => {
    refused(await call('POST', '/api/v1/namespaces/%E0%A4%A/workflows', start()), /^the path has a malformed percent-escape \(Failed to decode param '%E0%A4%A'\)/);
    refused(await call('GET', `${WF}/%ZZ/history`), /malformed percent-escape .*%ZZ/);
  });

  test(`a body nested more than ${MAX_JSON_DEPTH} levels deep is a 400, for a start and for a task completion that used to overflow the stack`, async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    refused(await call('POST', WF, undefined, `{"workflowId":"deep","workflowType":"t","taskQueue":"q","args":${deep(100_000)}}`), /nests arrays and objects more than 100 levels deep/, 'INVALID_JSON');
    const taskToken = encodeTaskToken({ kind: 'workflow', namespace: 'default', taskQueue: 'q', workflowId: 'w', runId: 'r', scheduledEventId: 2, attempt: 1, identity: 'x', partition: 0, offset: 0 }, taskBridges(engine).signer);
    const completion = `{"taskToken":${JSON.stringify(taskToken)},"commands":[{"type":"CompleteWorkflowExecution","result":${deep(100_000)}}]}`;
    refused(await call('POST', '/api/v1/namespaces/default/task-queues/q/workflow-tasks/complete', undefined, completion), /more than 100 levels deep/, 'INVALID_JSON');
    assert.equal((await call('POST', WF, start({ args: [JSON.parse(deep(MAX_JSON_DEPTH - 2))] }))).status, 201, 'a body at the limit (the object, `args` and 98 arrays in it) is accepted');
  });

  test('a visibility query nested more than 64 levels is a 400 INVALID_QUERY in list and count, not a stack overflow', async () => {
    const query = encodeURIComponent(`${'('.repeat(3000)}WorkflowId = 'x'${')'.repeat(3000)}`);
    refused(await call('GET', `${WF}?query=${query}`), /nests NOT and parentheses more than 64 levels deep/, 'INVALID_QUERY');
    refused(await call('GET', `/api/v1/namespaces/default/workflow-count?query=${encodeURIComponent(`${'NOT '.repeat(65)}WorkflowId = 'x'`)}`), /more than 64 levels deep/, 'INVALID_QUERY');
    assert.equal((await call('GET', `/api/v1/namespaces/default/workflow-count?query=${encodeURIComponent(`${'('.repeat(64)}WorkflowId = 'x'${')'.repeat(64)}`)}`)).status, 200);
  });

  test('a task completion whose commands break a rule is a 400 naming it, before anything is written', async () => {
    const taskToken = encodeTaskToken({ kind: 'workflow', namespace: 'default', taskQueue: 'q', workflowId: 'w', runId: 'r', scheduledEventId: 2, attempt: 1, identity: 'x', partition: 0, offset: 0 }, taskBridges(engine).signer);
    const activity = { type: 'ScheduleActivityTask', activityId: '1', activityType: 'a', taskQueue: '../../q', header: {}, input: [], scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: null, startToCloseTimeoutMs: 1.5, heartbeatTimeoutMs: null, retryPolicy: null };
    refused(await call('POST', '/api/v1/namespaces/default/task-queues/q/workflow-tasks/complete', { taskToken, commands: [activity] }), /^WorkflowTaskCompleted: ScheduleActivityTask: taskQueue '\.\.\/\.\.\/q'/);
    refused(await call('POST', '/api/v1/namespaces/default/task-queues/q/workflow-tasks/complete', { taskToken, commands: [{ ...activity, taskQueue: null }] }), /ScheduleActivityTask: startToCloseTimeoutMs must be a whole number of milliseconds/);
  });

  test('the depth scan counts brackets outside strings only', () => {
    assert.equal(jsonNestingDepth(Buffer.from('{"a":[1,{"b":"[[[[\\"[["}]}')), 3);
    assert.equal(jsonNestingDepth(Buffer.from('"no nesting"')), 0);
  });
});
