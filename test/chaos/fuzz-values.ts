import type { SeededRandom } from './seeded-random.js';

/**
 * The values the HTTP fuzz draws from: small pools of valid names (bounded on purpose — every new
 * task queue or namespace the fuzz makes valid costs topics, group members and scheduler workers),
 * hostile path segments and field values, and JSON that `JSON.stringify` cannot write (numbers
 * past a double, nesting tens of thousands deep).
 */

/** Namespaces the fuzz may write to: never `default`, where the chaos workflows run. */
export const FUZZ_NAMESPACES = ['fuzz', 'fuzz-b'] as const;
/** Namespaces the fuzz registers (so its schedules can run); a small pool. */
export const REGISTERED_NAMESPACES = ['fuzz-reg'] as const;
/** Namespaces the fuzz only reads (list, count, describe, history). */
export const READ_NAMESPACES = [...FUZZ_NAMESPACES, ...REGISTERED_NAMESPACES, 'default'] as const;
/** Workflow ids the fuzz uses: never those of the chaos workflows (`chaos-…`). */
export const FUZZ_WORKFLOW_IDS = Array.from({ length: 12 }, (_, i) => `fuzz-${i + 1}`);
/** Task queues of the fuzz; never `chaos`, whose tasks a fuzz poll would steal. */
export const FUZZ_TASK_QUEUES = ['fq1', 'fq2'] as const;

/** Path segments a careless or hostile caller sends, already percent-escaped as they go on the wire. */
export const HOSTILE_SEGMENTS = [
  'a.b', '..%2F..%2Fetc', '..', '.', '%2e%2e', '%', '%zz', '%E0%A4%A', '%00', '%FF%FE', '%F0%9F%98%80', 'a%2Fb', '%20',
  '__proto__', 'constructor', '%3Cscript%3E', '-', '_', 'x'.repeat(3_000), 'a'.repeat(250),
] as const;

/** Names that are invalid as a namespace or task queue (they become part of a topic name). */
export const HOSTILE_NAMES = ['a.b', '../../q', '..%2F..%2Fetc', '', ' ', 'q q', 'ü', 'x'.repeat(300), '-'.repeat(3), 'a/b', '\u0000'] as const;

/** Short valid waits, so the fuzz stays quick. */
export const VALID_WAITS = ['0', '1ms', '200ms', '1s', '2s', 500, 1_000] as const;
/** Waits the engine must refuse (or cap to a documented maximum) without waiting. */
export const HOSTILE_WAITS = [
  'abc', '-1s', '1e400', 'NaN', 'Infinity', '-0', '99999h', '1000000000d', '9007199254740993', '1.5.5s', '', '10 parsecs', '0x10',
  9_007_199_254_740_991, -5, 1e308, true, null, [], {},
] as const;

/** JSON text that goes into a body as it is (see {@link jsonText}). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Nested arrays `depth` deep. */
export function deepArray(depth: number): RawJson {
  return new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/** Nested objects `depth` deep. */
export function deepObject(depth: number): RawJson {
  return new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

/** Field values of the wrong type, size or range. */
export function hostileValue(random: SeededRandom): unknown {
  const values: Array<() => unknown> = [
    () => null, () => true, () => 42, () => -1, () => 0.5, () => '', () => 'x'.repeat(random.pick([300, 10_000, 100_000])),
    () => [], () => ({}), () => [[[]]], () => ({ $b64: '!!!' }), () => '__proto__', () => new RawJson('{"__proto__":{"polluted":true}}'),
    () => new RawJson(random.pick(['1e400', '-1e400', '18446744073709551616', '9'.repeat(400), '1e-400', '-0'])),
    () => deepArray(random.pick([100, 5_000, 20_000])), () => deepObject(random.pick([100, 5_000, 20_000])),
    () => random.pick(HOSTILE_WAITS), () => random.pick(HOSTILE_NAMES),
  ];
  return random.pick(values)();
}

/** A pool value, or now and then (`hostile` of the time) a hostile one. */
export function mostly<T>(random: SeededRandom, pool: readonly T[], hostile: readonly unknown[], p = 0.2): T | unknown {
  return random.chance(p) ? random.pick(hostile) : random.pick(pool);
}

/**
 * JSON text of `value`, with each {@link RawJson} written as its text: the way to send numbers past
 * a double or nesting deeper than `JSON.stringify` would recurse.
 */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof RawJson)) return v;
    raws.push(v.text);
    return `\u0000raw${raws.length - 1}\u0000`;
  });
  return (text ?? 'null').replace(/"\\u0000raw(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}

/** A path segment: a pool value escaped for the wire, or (`p` of the time) a hostile one as it is. */
export function segment(random: SeededRandom, pool: readonly string[], p = 0.15): string {
  return random.chance(p) ? random.pick(HOSTILE_SEGMENTS) : encodeURIComponent(random.pick(pool));
}
