import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cloneData, sameData } from './plain-data.js';

/** Plain data as snapshots hold it: objects, arrays, primitives and byte buffers. */
const plainData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes))),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constant('__proto__')), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

test('a copy of plain data equals it, shares no object or array with it, and shares its byte buffers', () => {
  fc.assert(fc.property(plainData, (value) => {
    const copy = cloneData(value);
    assert.deepEqual(copy, value);
    assert.ok(sameData(copy, value));
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) assert.notEqual(copy, value);
    if (value instanceof Uint8Array) assert.equal(copy, value);
  }));
});

test('sameData tells apart data that differ in a nested value, a key, an array length or one byte', () => {
  const base = { a: [1, { b: Buffer.from([1, 2]) }], c: 'x' };
  assert.ok(sameData(base, cloneData(base)));
  assert.ok(!sameData(base, { ...base, c: 'y' }));
  assert.ok(!sameData(base, { ...base, d: undefined }), 'an extra key, even undefined');
  assert.ok(!sameData({ a: 1, b: undefined }, { a: 1, c: undefined }), 'same key count, other keys');
  assert.ok(!sameData(base, { ...base, a: [1] }));
  assert.ok(!sameData(base, { ...base, a: [1, { b: Buffer.from([1, 3]) }] }));
  assert.ok(!sameData([1, 2], { 0: 1, 1: 2 }), 'an array is not an object with its indices');
});
