import { jsonText, hostileValue, deepArray, deepObject } from './fuzz-values.js';
import { ROUTES, RESULT_WAIT_MS, type RouteRequest } from './fuzz-routes.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * The HTTP fuzz's request generator: from a seed, a reproducible sequence of requests over every
 * route of the gateway (fuzz-routes.ts), as they come and mutated (a field of the wrong type, size
 * or range; a field missing; one nobody knows), with the wrong method, on hostile paths, and with
 * bodies that are not what they claim. Each request carries the wait it asks for itself, so the
 * runner can tell a hang (an answer later than that wait plus 10 s) from a long poll.
 */

/** One request on the wire. */
export interface FuzzRequest {
  /** The route it was built from (or the hostile class), for the figures. */
  readonly route: string;
  readonly method: string;
  /** Path and query, printable ASCII, percent-escapes (valid or not) as they go out. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** What the request itself asks to wait for (its timeout, waitMs, or the route's default). */
  readonly ownWaitMs: number;
}

/** How the generator splits its requests between the classes. */
export const FUZZ_MIX = { asBuilt: 0.45, mutated: 0.25, wrongMethod: 0.1, hostilePath: 0.1, badBody: 0.1 } as const;

/** Methods a confused client sends. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

/** Paths no route expects, already escaped as they go on the wire. */
const HOSTILE_PATHS = [
  '/api/v1/namespaces/%', '/api/v1/namespaces/%zz/workflows', '/api//v1/namespaces', '/..', '/%2e%2e/%2e%2e/etc/passwd',
  '/api/v1/namespaces/default/workflows/%E0%A4%A/history', `/${'a/'.repeat(2_000)}`, '/api/v1/namespaces/default/workflows?query=%',
  '/api/v1/namespaces/fuzz/workflows/fuzz-1/result?timeout=1s&timeout=2s', '/api/v1/namespaces/default/workflows?query=a&query=b',
  '/api/v1/namespaces/default/workflows?pageSize[]=1', '/api/v1/namespaces/default/workflow-count?query[a]=b', '/api/v1',
  '/api/v1/namespaces/fuzz/workflows/fuzz-1/history?untilEventId=%00', '/healthz/../metrics', '/api/v1/namespaces/fuzz/task-queues/fq1/workflow-tasks',
  '/api/v1/namespaces/fuzz/schedules/%2F', '/%00', '/api/v1/namespaces/fuzz/workflows/fuzz-1/signals/', '/api/v1/namespaces/fuzz/workflows/fuzz-1/updates/',
] as const;

/** The wait assumed for a request whose route is unknown: the longest default of any route. */
export const UNKNOWN_ROUTE_WAIT_MS = RESULT_WAIT_MS;

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** The next request of the sequence drawn from `random`. */
export function fuzzRequest(random: SeededRandom): FuzzRequest {
  const roll = random.next();
  const built = random.pick(ROUTES).build(random);
  let boundary = FUZZ_MIX.asBuilt;
  if (roll < boundary) return onTheWire(built);
  if (roll < (boundary += FUZZ_MIX.mutated)) return onTheWire(mutated(built, random));
  if (roll < (boundary += FUZZ_MIX.wrongMethod)) return wrongMethod(built, random);
  if (roll < (boundary += FUZZ_MIX.hostilePath)) return hostilePath(built, random);
  return badBody(built, random);
}

function onTheWire(request: RouteRequest): FuzzRequest {
  const { route, method, path, ownWaitMs } = request;
  if (request.body === undefined) return { route, method, path, headers: {}, ownWaitMs };
  return { route, method, path, headers: JSON_HEADERS, body: jsonText(request.body), ownWaitMs };
}

/** Fields that set how long a request waits: changing one makes its wait unknown. */
const WAIT_FIELDS = new Set(['timeout', 'waitMs']);

/** One field changed to a hostile value, removed, or a field added that no route knows. */
function mutated(request: RouteRequest, random: SeededRandom): RouteRequest {
  const body: Record<string, unknown> = { ...(request.body ?? {}) };
  const keys = Object.keys(body);
  const action = keys.length === 0 ? 'add' : random.pick(['replace', 'replace', 'remove', 'add'] as const);
  const key = action === 'add' ? random.pick(['extra', '__proto__', 'constructor', 'x'.repeat(1_000)]) : random.pick(keys);
  // defineProperty: assigning `__proto__` would set the prototype instead of adding a field.
  if (action === 'remove') delete body[key];
  else Object.defineProperty(body, key, { value: hostileValue(random), enumerable: true, writable: true, configurable: true });
  const ownWaitMs = WAIT_FIELDS.has(key) ? Math.max(request.ownWaitMs, UNKNOWN_ROUTE_WAIT_MS) : request.ownWaitMs;
  return { ...request, route: `${request.route} (mutated)`, body, ownWaitMs };
}

/** Methods that change nothing: all the fuzz may send to the `default` namespace, where the chaos workflows run. */
const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];
const methodsFor = (path: string): readonly string[] => (path.startsWith('/api/v1/namespaces/default') ? READ_METHODS : METHODS);

function wrongMethod(request: RouteRequest, random: SeededRandom): FuzzRequest {
  const method = random.pick(methodsFor(request.path).filter((m) => m !== request.method));
  // Another method on the same path may reach another route (GET of a start path is a list): its wait is unknown.
  return { ...onTheWire(request), route: `${method} on ${request.route}`, method, ownWaitMs: UNKNOWN_ROUTE_WAIT_MS };
}

function hostilePath(request: RouteRequest, random: SeededRandom): FuzzRequest {
  const path = random.pick(HOSTILE_PATHS);
  const method = random.pick(methodsFor(path));
  const body = method === 'GET' || method === 'HEAD' ? undefined : jsonText(request.body ?? {});
  return { route: 'hostile path', method, path, headers: body === undefined ? {} : JSON_HEADERS, ...(body === undefined ? {} : { body }), ownWaitMs: UNKNOWN_ROUTE_WAIT_MS };
}

/** A body that is not the JSON object it claims to be, or is not sent as JSON at all. */
function badBody(request: RouteRequest, random: SeededRandom): FuzzRequest {
  const method = request.method === 'GET' ? random.pick(methodsFor(request.path).filter((m) => m !== 'HEAD')) : request.method;
  const kinds: Array<() => { body: string | Buffer; headers: Record<string, string> }> = [
    () => ({ body: random.pick(['{', '{"a":', '{"a":1,}', "{'a':1}", 'undefined', '\u0000']), headers: JSON_HEADERS }),
    () => ({ body: random.bytes(random.between(1, 4_096)), headers: JSON_HEADERS }),
    () => ({ body: random.pick(['null', '42', '"str"', '[]', 'true', '1e400']), headers: JSON_HEADERS }),
    () => ({ body: jsonText(random.chance(0.5) ? deepArray(50_000) : deepObject(50_000)), headers: JSON_HEADERS }),
    () => ({ body: jsonText(request.body ?? {}), headers: { 'content-type': random.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-7', 'multipart/form-data']) } }),
    () => ({ body: jsonText(request.body ?? {}), headers: { 'content-type': 'application/json', 'content-encoding': random.pick(['gzip', 'br', 'nonsense']) } }),
  ];
  // A body past the gateway's 3 MB limit, now and then: it costs the machine more than the others.
  const kind = random.chance(0.01) ? () => ({ body: Buffer.alloc(3.5 * 1024 * 1024, 0x20), headers: JSON_HEADERS }) : random.pick(kinds);
  return { route: `${request.route} (bad body)`, method, path: request.path, ...kind(), ownWaitMs: UNKNOWN_ROUTE_WAIT_MS };
}
