import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import type { WorkflowRun } from '../replay/workflow-run.js';
import { defaultCacheCapacity, WorkflowCache } from './workflow-cache.js';

const MiB = 1024 * 1024;

test('the default cache holds half of the heap above 512 MiB at 64 KiB a run: about 28,000 runs under a 4 GiB heap', () => {
  assert.equal(defaultCacheCapacity(4096 * MiB), 28_672);
  assert.equal(defaultCacheCapacity(2048 * MiB), 12_288);
});

test('a heap too small for a cache still caches 100 runs', () => {
  assert.equal(defaultCacheCapacity(256 * MiB), 100);
  assert.equal(defaultCacheCapacity(600 * MiB), 704);
});

test('the default follows this process heap limit (--max-old-space-size included)', () => {
  assert.equal(defaultCacheCapacity(), defaultCacheCapacity(getHeapStatistics().heap_size_limit));
});

test('a full cache disposes of the run used least recently', () => {
  const disposed: string[] = [];
  const run = (id: string) => ({ dispose: () => disposed.push(id) }) as unknown as WorkflowRun;
  const cache = new WorkflowCache(2);
  cache.set('a', run('a'));
  cache.set('b', run('b'));
  cache.get('a');
  cache.set('c', run('c'));
  assert.deepEqual(disposed, ['b']);
  assert.ok(cache.get('a') && cache.get('c') && !cache.get('b'));
});
