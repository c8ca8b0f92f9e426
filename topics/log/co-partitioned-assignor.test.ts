import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignCoPartitioned } from './co-partitioned-assignor.js';

const all = (m: Map<string, number[]>) => [...m.values()].flat().sort((a, b) => a - b);

test('every partition is assigned exactly once and quotas differ by at most one', () => {
  for (let members = 1; members <= 5; members++) {
    for (const n of [1, 7, 8, 16]) {
      const ms = Array.from({ length: members }, (_, i) => ({ memberId: `m${i}`, owned: [] }));
      const a = assignCoPartitioned(ms, n);
      assert.deepEqual(all(a), Array.from({ length: n }, (_, i) => i));
      const sizes = [...a.values()].map((x) => x.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1);
    }
  }
});

test('a third member joining takes partitions only from the others, moving no more than it needs', () => {
  const before = assignCoPartitioned([{ memberId: 'a', owned: [] }, { memberId: 'b', owned: [] }], 8);
  const after = assignCoPartitioned(
    [
      { memberId: 'a', owned: before.get('a')! },
      { memberId: 'b', owned: before.get('b')! },
      { memberId: 'c', owned: [] },
    ],
    8,
  );
  for (const m of ['a', 'b']) {
    for (const p of after.get(m)!) assert.ok(before.get(m)!.includes(p), `${m} gained ${p}`);
  }
  assert.equal(after.get('c')!.length, 2);
  assert.deepEqual(all(after), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('a member leaving hands its partitions to the remaining members and nothing else moves', () => {
  const owned = { a: [0, 1, 2], b: [3, 4, 5], c: [6, 7] };
  const after = assignCoPartitioned([{ memberId: 'a', owned: owned.a }, { memberId: 'b', owned: owned.b }], 8);
  for (const p of owned.a) assert.ok(after.get('a')!.includes(p));
  for (const p of owned.b) assert.ok(after.get('b')!.includes(p));
  assert.deepEqual(all(after), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('conflicting or out-of-range ownership claims are resolved without duplicates', () => {
  const a = assignCoPartitioned([{ memberId: 'a', owned: [0, 1, 9] }, { memberId: 'b', owned: [1, 2] }], 4);
  assert.deepEqual(all(a), [0, 1, 2, 3]);
});
