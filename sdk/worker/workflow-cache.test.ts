import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkflowRun } from '../replay/workflow-run.js';
import { defaultCacheCapacity, WorkflowCache, type HeapGauge } from './workflow-cache.js';

const MiB = 1024 * 1024;

/** Runs that record their disposal in `disposed`. */
function runs(disposed: string[]): (id: string) => WorkflowRun {
  return (id) => ({ dispose: () => disposed.push(id) }) as unknown as WorkflowRun;
}

test('the default cache holds half of the heap limit at 64 KiB a run: about 32,000 runs under a 4 GiB heap', () => {
  assert.equal(defaultCacheCapacity(4096 * MiB), 32_768);
  assert.equal(defaultCacheCapacity(1024 * MiB), 8_192);
});

test('a small heap still caches 1,000 runs (its memory check gives runs up if they do not fit)', () => {
  assert.equal(defaultCacheCapacity(100 * MiB), 1_000);
});

test('a full cache disposes of the run used least recently', () => {
  const disposed: string[] = [];
  const run = runs(disposed);
  const cache = new WorkflowCache(2);
  cache.set('a', run('a'));
  cache.set('b', run('b'));
  cache.get('a');
  cache.set('c', run('c'));
  assert.deepEqual(disposed, ['b']);
  assert.ok(cache.get('a') && cache.get('c') && !cache.get('b'));
});

test('past three quarters of the heap limit the cache gives up its least recently used tenth, whatever its count, at most once a second', () => {
  const disposed: string[] = [];
  const run = runs(disposed);
  let used = 10 * MiB;
  let now = 0;
  const heap: HeapGauge = { usedBytes: () => used, limitBytes: 100 * MiB };
  const cache = new WorkflowCache(1_000, heap, () => now);
  for (let i = 0; i < 20; i++) cache.set(`r${i}`, run(`r${i}`));
  assert.equal(cache.size, 20, 'below the high-water mark nothing is given up');
  used = 80 * MiB;
  now += 1_000;
  cache.set('r20', run('r20'));
  assert.deepEqual(disposed, ['r0', 'r1', 'r2']);
  cache.set('r21', run('r21'));
  assert.equal(disposed.length, 3, 'not again within the second: the runs given up need a GC first');
  now += 1_000;
  used = 50 * MiB;
  cache.set('r22', run('r22'));
  assert.equal(disposed.length, 3, 'below the mark again: nothing more');
});
