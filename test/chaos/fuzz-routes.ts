import { durationToMs } from '../../sdk/workflow/duration.js';
import {
  FUZZ_NAMESPACES, FUZZ_TASK_QUEUES, FUZZ_WORKFLOW_IDS, HOSTILE_NAMES, HOSTILE_WAITS, READ_NAMESPACES, RawJson, REGISTERED_NAMESPACES,
  VALID_WAITS, deepArray, hostileValue, mostly, segment,
} from './fuzz-values.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Every route of the gateway (gateway/http-app.ts and the routers it mounts: namespaces, tasks,
 * reset, visibility, updates, schedules), each with a builder of plausible requests and the wait the
 * request itself asks for: its `timeout` / `waitMs`, or the route's documented default.
 */

/** How long the gateway waits for the engine's reply to a command (CommandClient's default). */
export const REPLY_WAIT_MS = 30_000;
/** `GET …/result` and updates without a timeout (http-app.ts, update-sender.ts). */
export const RESULT_WAIT_MS = 60_000;
/** Queries without a timeout (query-sender.ts). */
export const QUERY_WAIT_MS = 10_000;
/** A long poll without `waitMs` (wire-values.ts). */
export const POLL_WAIT_MS = 20_000;
/** The most a long poll waits, whatever its `waitMs` (wire-values.ts). */
export const POLL_WAIT_CAP_MS = 60_000;
/** A history read waits this long for events committed but not yet indexed (engine.ts). */
export const HISTORY_WAIT_MS = 5_000;

/** A request as a route builds it, before any mutation. */
export interface RouteRequest {
  readonly route: string;
  readonly method: string;
  readonly path: string;
  readonly body?: Record<string, unknown>;
  readonly ownWaitMs: number;
}

/** One route: its label and a builder. */
export interface RouteSpec {
  readonly route: string;
  build(random: SeededRandom): RouteRequest;
}

/** The wait a duration value asks for: its milliseconds, `fallback` when absent, 0 when invalid (it must be refused at once). */
export function waitOf(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  try {
    return typeof value === 'number' || typeof value === 'string' ? durationToMs(value, 'wait') : 0;
  } catch {
    return 0;
  }
}

function pollWaitOf(value: unknown): number {
  if (value === undefined) return POLL_WAIT_MS;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(value, POLL_WAIT_CAP_MS) : 0;
}

const maybe = <T>(random: SeededRandom, value: () => T, p = 0.5): T | undefined => (random.chance(p) ? value() : undefined);
const wait = (random: SeededRandom) => mostly(random, VALID_WAITS, HOSTILE_WAITS, 0.25);
const query = (params: Record<string, unknown>) => {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
};
const ns = (random: SeededRandom) => segment(random, FUZZ_NAMESPACES);
const readNs = (random: SeededRandom) => segment(random, READ_NAMESPACES);
const wf = (random: SeededRandom) => `${ns(random)}/workflows/${segment(random, FUZZ_WORKFLOW_IDS)}`;
const NS = '/api/v1/namespaces';

/** A start body with valid fields in the fuzz's pools and some options drawn valid or not. */
export function startBody(random: SeededRandom): Record<string, unknown> {
  return {
    workflowId: random.pick(FUZZ_WORKFLOW_IDS),
    workflowType: 'fuzzType',
    taskQueue: mostly(random, FUZZ_TASK_QUEUES, HOSTILE_NAMES),
    args: [random.int(100)],
    workflowIdConflictPolicy: maybe(random, () => random.pick(['Fail', 'UseExisting', 'TerminateExisting', 'Nope', 3]), 0.3),
    workflowIdReusePolicy: maybe(random, () => random.pick(['AllowDuplicate', 'RejectDuplicate', 'AllowDuplicateFailedOnly', 'bad', null]), 0.3),
    workflowExecutionTimeout: maybe(random, () => mostly(random, ['1h', '10m'], HOSTILE_WAITS), 0.3),
    workflowRunTimeout: maybe(random, () => mostly(random, ['1h'], HOSTILE_WAITS), 0.2),
    workflowTaskTimeout: maybe(random, () => mostly(random, ['10s'], HOSTILE_WAITS), 0.2),
    retryPolicy: maybe(random, () => random.pick([{ maximumAttempts: 2 }, { initialInterval: 'abc' }, { backoffCoefficient: -1 }, { initialInterval: '10s', maximumInterval: '1s' }, 'always']), 0.2),
    searchAttributes: maybe(random, () => random.pick([{ CustomKeywordField: 'x' }, { 'bad name': 1 }, 'str', { CustomIntField: 1e308 }]), 0.2),
    memo: maybe(random, () => random.pick([{ a: 1 }, 'memo', [1]]), 0.2),
    cronSchedule: maybe(random, () => random.pick(['0 * * * *', 'nonsense', '', 5]), 0.1),
    requestId: maybe(random, () => random.pick(['r1', 5, '']), 0.2),
  };
}

function scheduleBody(random: SeededRandom): Record<string, unknown> {
  return {
    scheduleId: mostly(random, ['s1', 's2', 's3'], HOSTILE_NAMES),
    // Valid specs fire at most hourly: the fuzz must not become a load generator of its own.
    spec: random.pick<unknown>([{ intervals: [{ every: '1h' }] }, { cronExpressions: ['0 * * * *'] }, { intervals: [{ every: '1ms' }] }, {}, 'x', { intervals: deepArray(2_000) }, { cronExpressions: ['61 * * * *'] }]),
    action: { workflowType: 'fuzzType', taskQueue: mostly(random, FUZZ_TASK_QUEUES, HOSTILE_NAMES), workflowId: 'fuzz-sched' },
    policies: maybe(random, () => random.pick([{ overlap: 'SKIP' }, { overlap: 'nope' }, 5])),
  };
}

function namespaceChanges(random: SeededRandom): Record<string, unknown> {
  return {
    description: maybe(random, () => 'fuzz'),
    retention: maybe(random, () => mostly(random, ['1d', '72h'], HOSTILE_WAITS, 0.4)),
    historyLimits: maybe(random, () => random.pick([{ maxEvents: 10_000 }, { x: 'y' }, 5]), 0.3),
    startsPerSecond: maybe(random, () => random.pick([1_000, -1, 'fast', 1e308]), 0.2),
    taskQueueActivitiesPerSecond: maybe(random, () => random.pick([{ fq1: 100 }, 'x']), 0.2),
  };
}

const taskResult = (random: SeededRandom) => ({
  taskToken: random.pick<unknown>(['garbage', '', Buffer.from(random.bytes(40)).toString('base64'), 5, null]),
  commands: random.pick<unknown>([[], [{ type: 'CompleteWorkflowExecution', result: null }], [{}], 'x', deepArray(5_000)]),
  result: maybe(random, () => hostileValue(random)),
  failure: random.pick<unknown>([{ message: 'x' }, { message: 5 }, 'f', { message: 'deep', cause: { message: 'a', cause: { message: 'b' } } }]),
  details: maybe(random, () => hostileValue(random)),
  cause: maybe(random, () => random.pick(['WorkflowWorkerUnhandledFailure', 'Nope'])),
});

const command = (route: string, suffix: (r: SeededRandom) => string, body: (r: SeededRandom) => Record<string, unknown>, waitKey?: string, fallback = REPLY_WAIT_MS): RouteSpec => ({
  route,
  build(r) {
    const b = body(r);
    return { route, method: 'POST', path: `${NS}/${wf(r)}${suffix(r)}`, body: b, ownWaitMs: waitKey ? waitOf(b[waitKey], fallback) : fallback };
  },
});

/** The route table. */
export const ROUTES: readonly RouteSpec[] = [
  { route: 'GET /', build: () => ({ route: 'GET /', method: 'GET', path: '/', ownWaitMs: 0 }) },
  { route: 'GET /healthz', build: () => ({ route: 'GET /healthz', method: 'GET', path: '/healthz', ownWaitMs: 0 }) },
  { route: 'GET /metrics', build: () => ({ route: 'GET /metrics', method: 'GET', path: '/metrics', ownWaitMs: 0 }) },
  { route: 'POST namespaces', build: (r) => ({ route: 'POST namespaces', method: 'POST', path: NS, body: { name: mostly(r, REGISTERED_NAMESPACES, HOSTILE_NAMES, 0.5), ...namespaceChanges(r) }, ownWaitMs: REPLY_WAIT_MS }) },
  { route: 'GET namespaces', build: () => ({ route: 'GET namespaces', method: 'GET', path: NS, ownWaitMs: 0 }) },
  { route: 'GET namespace', build: (r) => ({ route: 'GET namespace', method: 'GET', path: `${NS}/${readNs(r)}`, ownWaitMs: 0 }) },
  ...['PUT', 'PATCH'].map((method): RouteSpec => ({
    route: `${method} namespace`,
    build: (r) => ({ route: `${method} namespace`, method, path: `${NS}/${segment(r, [...FUZZ_NAMESPACES, ...REGISTERED_NAMESPACES])}`, body: { ...namespaceChanges(r), state: maybe(r, () => r.pick(['Registered', 'Deprecated', 'x']), 0.2) }, ownWaitMs: REPLY_WAIT_MS }),
  })),
  { route: 'POST start', build: (r) => ({ route: 'POST start', method: 'POST', path: `${NS}/${ns(r)}/workflows`, body: startBody(r), ownWaitMs: REPLY_WAIT_MS }) },
  { route: 'GET list', build: (r) => ({ route: 'GET list', method: 'GET', path: `${NS}/${readNs(r)}/workflows${query({ query: visibilityQuery(r), pageSize: maybe(r, () => r.pick(['10', '0', '-1', '1e9', 'abc', '99999999999999999999'])), nextPageToken: maybe(r, () => r.pick(['', 'garbage', '%%%']), 0.2) })}`, ownWaitMs: 0 }) },
  { route: 'GET count', build: (r) => ({ route: 'GET count', method: 'GET', path: `${NS}/${readNs(r)}/workflow-count${query({ query: visibilityQuery(r) })}`, ownWaitMs: 0 }) },
  { route: 'GET patch runs', build: (r) => ({ route: 'GET patch runs', method: 'GET', path: `${NS}/${readNs(r)}/patches/${segment(r, ['p1'])}/open-runs-lacking${query({ workflowType: maybe(r, () => 'fuzzType', 0.8) })}`, ownWaitMs: 0 }) },
  { route: 'GET describe', build: (r) => ({ route: 'GET describe', method: 'GET', path: `${NS}/${readNs(r)}/workflows/${segment(r, FUZZ_WORKFLOW_IDS)}${query({ runId: maybe(r, () => 'nope', 0.2) })}`, ownWaitMs: 0 }) },
  { route: 'GET history', build: (r) => ({ route: 'GET history', method: 'GET', path: `${NS}/${readNs(r)}/workflows/${segment(r, FUZZ_WORKFLOW_IDS)}/history${query({ untilEventId: maybe(r, () => r.pick(['5', '0', '-1', '1e309', '99999999', 'abc']), 0.4), raw: maybe(r, () => '1', 0.3) })}`, ownWaitMs: HISTORY_WAIT_MS }) },
  {
    route: 'GET result',
    build(r) {
      const timeout = maybe(r, () => wait(r), 0.9);
      return { route: 'GET result', method: 'GET', path: `${NS}/${wf(r)}/result${query({ timeout, followRuns: maybe(r, () => r.pick(['false', '1', 'x']), 0.3) })}`, ownWaitMs: waitOf(timeout, RESULT_WAIT_MS) };
    },
  },
  command('POST signal-with-start', () => `/signal-with-start`, (r) => ({ ...startBody(r), signalName: mostly(r, ['go'], [5, '']), signalArgs: maybe(r, () => [1]) })),
  command('POST signal', (r) => `/signals/${segment(r, ['go'])}`, (r) => ({ args: maybe(r, () => r.pick<unknown>([[1], 'x', deepArray(5_000)])), runId: maybe(r, () => 'nope', 0.2), requestId: maybe(r, () => 'r1', 0.2) })),
  command('POST cancel', () => '/cancel', (r) => ({ reason: maybe(r, () => r.pick<unknown>(['fuzz', 5])), runId: maybe(r, () => 'nope', 0.2) })),
  command('POST terminate', () => '/terminate', (r) => ({ reason: maybe(r, () => r.pick<unknown>(['fuzz', 5])), runId: maybe(r, () => 'nope', 0.2) })),
  command('POST query', (r) => `/query/${segment(r, ['state'])}`, (r) => ({ args: maybe(r, () => r.pick<unknown>([[], 'x'])), timeout: maybe(r, () => wait(r), 0.9) }), 'timeout', QUERY_WAIT_MS),
  command('POST reset', () => '/reset', (r) => ({ eventId: mostly(r, [3, 4, '3'], [0, -1, 1.5, 'x', 1e308, new RawJson('1e400')], 0.4), reason: 'fuzz', requestId: maybe(r, () => 'r1', 0.2) })),
  command('POST update', (r) => `/update/${segment(r, ['u'])}`, (r) => ({ args: [], updateId: maybe(r, () => mostly(r, ['u1', 'u2'], HOSTILE_NAMES)), waitForStage: maybe(r, () => r.pick(['ACCEPTED', 'COMPLETED', 'never', 1])), timeout: maybe(r, () => wait(r), 0.9) }), 'timeout', RESULT_WAIT_MS),
  command('POST update-with-start', (r) => `/update-with-start/${segment(r, ['u'])}`, (r) => ({ ...startBody(r), updateArgs: [], updateId: maybe(r, () => 'u1'), timeout: maybe(r, () => wait(r), 0.9) }), 'timeout', RESULT_WAIT_MS),
  {
    route: 'GET update',
    build(r) {
      const timeout = maybe(r, () => wait(r), 0.9);
      return { route: 'GET update', method: 'GET', path: `${NS}/${wf(r)}/updates/${segment(r, ['u1', 'u2'])}${query({ timeout })}`, ownWaitMs: waitOf(timeout, RESULT_WAIT_MS) };
    },
  },
  ...['workflow', 'activity'].map((kind): RouteSpec => ({
    route: `POST ${kind} poll`,
    build(r) {
      const waitMs = maybe(r, () => mostly(r, [0, 100, 500, 1_000], [-1, 1e308, 'abc', 99_999_999, null], 0.2), 0.95);
      return { route: `POST ${kind} poll`, method: 'POST', path: `${NS}/${ns(r)}/task-queues/${segment(r, FUZZ_TASK_QUEUES)}/${kind}-tasks/poll`, body: { identity: mostly(r, ['fuzz-worker'], ['', 5]), waitMs }, ownWaitMs: pollWaitOf(waitMs) };
    },
  })),
  ...['workflow-tasks/complete', 'workflow-tasks/fail', 'activity-tasks/complete', 'activity-tasks/fail', 'activity-tasks/canceled', 'activity-tasks/heartbeat'].map((action): RouteSpec => ({
    route: `POST ${action}`,
    build: (r) => ({ route: `POST ${action}`, method: 'POST', path: `${NS}/${ns(r)}/task-queues/${segment(r, FUZZ_TASK_QUEUES)}/${action}`, body: taskResult(r), ownWaitMs: REPLY_WAIT_MS }),
  })),
  ...['complete', 'fail', 'heartbeat', 'report-cancellation'].map((action): RouteSpec => ({
    route: `POST activities/${action}`,
    build: (r) => ({
      route: `POST activities/${action}`, method: 'POST', path: `${NS}/${ns(r)}/activities/${action}`,
      body: { ...taskResult(r), workflowId: maybe(r, () => mostly(r, [...FUZZ_WORKFLOW_IDS], HOSTILE_NAMES)), runId: maybe(r, () => 'nope', 0.2), activityId: maybe(r, () => mostly(r, ['1'], HOSTILE_NAMES)) },
      ownWaitMs: REPLY_WAIT_MS,
    }),
  })),
  ...scheduleRoutes(),
];

function scheduleRoutes(): RouteSpec[] {
  const scheduleNs = (r: SeededRandom) => segment(r, [...REGISTERED_NAMESPACES, ...FUZZ_NAMESPACES]);
  const one = (r: SeededRandom) => `${NS}/${scheduleNs(r)}/schedules/${segment(r, ['s1', 's2', 's3'])}`;
  const backfill = (r: SeededRandom) => ({ startTime: mostly(r, ['2020-01-01T00:00:00Z'], ['bad', 5]), endTime: mostly(r, ['2020-01-01T03:00:00Z'], ['2019-01-01T00:00:00Z', 'x']), overlap: maybe(r, () => r.pick(['SKIP', 'nope'])) });
  const spec = (route: string, method: string, path: (r: SeededRandom) => string, body?: (r: SeededRandom) => Record<string, unknown>, ownWaitMs = REPLY_WAIT_MS): RouteSpec => ({
    route,
    build: (r) => ({ route, method, path: path(r), ...(body ? { body: body(r) } : {}), ownWaitMs }),
  });
  return [
    spec('POST schedule', 'POST', (r) => `${NS}/${scheduleNs(r)}/schedules`, scheduleBody),
    spec('GET schedules', 'GET', (r) => `${NS}/${scheduleNs(r)}/schedules`),
    spec('GET schedule', 'GET', one, undefined, QUERY_WAIT_MS),
    spec('PUT schedule', 'PUT', one, scheduleBody),
    spec('DELETE schedule', 'DELETE', one),
    spec('POST schedule pause', 'POST', (r) => `${one(r)}/pause`, (r) => ({ note: maybe(r, () => r.pick<unknown>(['n', 5])) })),
    spec('POST schedule unpause', 'POST', (r) => `${one(r)}/unpause`, () => ({})),
    spec('POST schedule trigger', 'POST', (r) => `${one(r)}/trigger`, (r) => ({ overlap: maybe(r, () => r.pick(['SKIP', 'nope'])) })),
    spec('POST schedule backfill', 'POST', (r) => `${one(r)}/backfill`, backfill),
  ];
}

function visibilityQuery(random: SeededRandom): string | undefined {
  return maybe(random, () => random.pick([
    "WorkflowType = 'fuzzType'", "ExecutionStatus = 'Running'", "WorkflowId = 'fuzz-1' OR WorkflowId = 'fuzz-2'", '', "'", '(((((', '('.repeat(5_000),
    "WorkflowType = 'x' AND", 'NoSuchAttribute = 1', "StartTime > 'not a time'", `WorkflowType = '${'x'.repeat(10_000)}'`, 'a'.repeat(50_000),
  ]), 0.7);
}
