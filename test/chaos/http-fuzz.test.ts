import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepArray, jsonText, RawJson } from './fuzz-values.js';
import { ROUTES, waitOf } from './fuzz-routes.js';
import { fuzzRequest, type FuzzRequest } from './http-fuzz.js';
import { seededRandom } from './seeded-random.js';

const sequence = (seed: number, n: number): FuzzRequest[] => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => fuzzRequest(random));
};
const bodyText = (r: FuzzRequest) => (r.body === undefined ? '' : r.body.toString('latin1'));

test('the same seed gives the same requests, another seed others', () => {
  const strip = (rs: FuzzRequest[]) => rs.map((r) => `${r.method} ${r.path} ${bodyText(r)}`);
  assert.deepEqual(strip(sequence(42, 200)), strip(sequence(42, 200)));
  assert.notDeepEqual(strip(sequence(42, 200)), strip(sequence(43, 200)));
});

test('every route of the gateway is reached, as built and in every hostile class, within a few thousand requests', () => {
  const routes = new Set(sequence(1, 4_000).map((r) => r.route));
  for (const spec of ROUTES) assert.ok(routes.has(spec.route), `route ${spec.route} was requested as built`);
  for (const suffix of ['(mutated)', '(bad body)']) assert.ok([...routes].some((r) => r.endsWith(suffix)), suffix);
  assert.ok(routes.has('hostile path'));
  assert.ok([...routes].some((r) => / on /.test(r)), 'a wrong method');
});

test('every path is printable ASCII without spaces, so it goes on the wire exactly as generated', () => {
  for (const r of sequence(2, 3_000)) assert.match(r.path, /^\/[\x21-\x7e]*$/, r.path.slice(0, 80));
});

test('the fuzz never writes to the default namespace nor names a chaos workflow or the chaos task queue', () => {
  for (const r of sequence(3, 5_000)) {
    if (r.path.startsWith('/api/v1/namespaces/default')) assert.ok(['GET', 'HEAD', 'OPTIONS'].includes(r.method), `${r.method} ${r.path.slice(0, 80)}`);
    assert.doesNotMatch(r.path, /chaos/);
    assert.doesNotMatch(bodyText(r), /chaos/);
  }
});

test('a request waits what it asks for: a valid duration its milliseconds, none given the route default, an invalid one nothing', () => {
  assert.equal(waitOf('2s', 60_000), 2_000);
  assert.equal(waitOf(500, 60_000), 500);
  assert.equal(waitOf(undefined, 60_000), 60_000);
  assert.equal(waitOf('abc', 60_000), 0);
  assert.equal(waitOf(null, 60_000), 0);
  assert.equal(waitOf([], 60_000), 0);
  const results = sequence(4, 3_000).filter((r) => r.route === 'GET result');
  assert.ok(results.length > 0);
  for (const r of results) {
    const timeout = new URL(r.path, 'http://x').searchParams.get('timeout');
    if (timeout === null) assert.equal(r.ownWaitMs, 60_000);
    else assert.equal(r.ownWaitMs, waitOf(/^[\d.e+-]+$/.test(timeout) && timeout !== '' ? JSON.parse(timeout) : timeout, 60_000), timeout);
  }
});

test('JSON bodies carry numbers past a double and nesting deeper than JSON.stringify, written as text', () => {
  assert.equal(jsonText({ a: new RawJson('1e400'), b: [1] }), '{"a":1e400,"b":[1]}');
  assert.equal(jsonText(deepArray(3)), '[[[]]]');
  const deep = jsonText({ x: deepArray(50_000) });
  assert.equal(deep.length, '{"x":}'.length + 100_000);
  const claimed = sequence(5, 2_000).filter((r) => r.headers['content-type'] === 'application/json' && !r.route.endsWith('(bad body)') && r.body !== undefined);
  for (const r of claimed) assert.doesNotThrow(() => JSON.parse(bodyText(r)), r.route);
});
