import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHistoryConfig, limitsFor, retentionFor } from '../history/index.js';
import { applyNamespaceChanges, blankNamespace, checkNamespaceName, historyConfigWith, InvalidNamespaceError } from './namespace-model.js';

describe('namespace model', () => {
  it('applies changes: absent fields kept, null clears a rate, a queue rate is removed by null', () => {
    const base = applyNamespaceChanges(blankNamespace('ns', 1), { description: 'd', startsPerSecond: 5, taskQueueActivitiesPerSecond: { q1: 2, q2: 3 } }, 1);
    const next = applyNamespaceChanges(base, { startsPerSecond: null, taskQueueActivitiesPerSecond: { q1: null }, retentionMs: 86_400_000 }, 2);
    assert.deepEqual([next.description, next.startsPerSecond, next.taskQueueActivitiesPerSecond, next.retentionMs, next.registerTime, next.updateTime], ['d', null, { q2: 3 }, 86_400_000, 1, 2]);
    assert.deepEqual(base.taskQueueActivitiesPerSecond, { q1: 2, q2: 3 }, 'the old value is not mutated');
  });

  it('refuses out-of-range and mistyped values with a message naming the field', () => {
    const ns = blankNamespace('ns', 0);
    const refused: Array<[Parameters<typeof applyNamespaceChanges>[1], RegExp]> = [
      [{ retentionMs: 999 }, /'retention' must be from 1s/],
      [{ apiCallsPerSecond: 0 }, /'apiCallsPerSecond' must be a positive number/],
      [{ historyLimits: { historyCountLimit: 1.5 } }, /'historyCountLimit' must be a positive integer/],
      [{ taskQueueActivitiesPerSecond: { 'a.b': 1 } }, /^'taskQueueActivitiesPerSecond': task queue 'a\.b' may contain only letters, digits, '_' and '-'/],
      [{ state: 'Gone' as 'Registered' }, /'state' must be 'Registered' or 'Deprecated'/],
      [{ description: 3 as unknown as string }, /'description' must be a string/],
    ];
    for (const [changes, message] of refused) assert.throws(() => applyNamespaceChanges(ns, changes, 0), (e: unknown) => e instanceof InvalidNamespaceError && message.test(e.message));
    assert.throws(() => checkNamespaceName('a/b'), InvalidNamespaceError);
    assert.throws(() => checkNamespaceName('n'.repeat(65)), /name '.*' is 65 characters long; at most 64 are allowed/);
    assert.equal(checkNamespaceName('billing_eu-1'), 'billing_eu-1');
  });

  it("puts each namespace's history limits over those of the base config, and its retention", () => {
    const ns = applyNamespaceChanges(blankNamespace('ns', 0), { retentionMs: 3_600_000, historyLimits: { maxSignalsPerRun: 5 } }, 0);
    const base = { ...defaultHistoryConfig, namespaceLimits: { ns: { historyCountLimit: 100, maxSignalsPerRun: 9 } } };
    const config = historyConfigWith(base, [ns]);
    assert.equal(limitsFor(config, 'ns').maxSignalsPerRun, 5);
    assert.equal(limitsFor(config, 'ns').historyCountLimit, 100);
    assert.equal(limitsFor(config, 'ns').historySizeLimitBytes, defaultHistoryConfig.limits.historySizeLimitBytes);
    assert.equal(retentionFor(config, 'ns'), 3_600_000);
    assert.equal(retentionFor(config, 'other'), 72 * 3_600_000);
  });

  it('sets every per-run limit of the engine per namespace, the workflow-task rate, payload, children and update limits included', () => {
    const limits = { maxWorkflowTasksPerSecond: 20, maxPayloadBytes: 4096, maxPendingChildWorkflows: 10, maxInFlightUpdatesPerRun: 2, maxUpdatesPerRun: 50 };
    const config = historyConfigWith(defaultHistoryConfig, [applyNamespaceChanges(blankNamespace('ns', 0), { historyLimits: limits }, 0)]);
    const applied = limitsFor(config, 'ns');
    assert.deepEqual(Object.fromEntries(Object.keys(limits).map((k) => [k, applied[k as keyof typeof applied]])), limits);
    const engineLimits = Object.keys(defaultHistoryConfig.limits).sort();
    assert.deepEqual(Object.keys(blankNamespace('ns', 0).historyLimits).sort(), engineLimits, 'a namespace can set exactly the limits the engine has');
  });

  it('sets the payload guards as whole lists (duplicates dropped, [] clears) and hands them to the history config', () => {
    const ns = applyNamespaceChanges(blankNamespace('ns', 0), { codecRequiredTaskQueues: ['orders', 'team/vault', 'orders'], refusedSearchAttributes: ['Email'] }, 0);
    assert.deepEqual([ns.codecRequiredTaskQueues, ns.refusedSearchAttributes], [['orders', 'team/vault'], ['Email']]);
    const cleared = applyNamespaceChanges(ns, { codecRequiredTaskQueues: [] }, 1);
    assert.deepEqual([cleared.codecRequiredTaskQueues, cleared.refusedSearchAttributes], [[], ['Email']], 'an absent list is kept');
    assert.deepEqual(historyConfigWith(defaultHistoryConfig, [ns]).namespaceGuards?.['ns'], { codecRequiredTaskQueues: ['orders', 'team/vault'], refusedSearchAttributes: ['Email'] });
    assert.deepEqual(applyNamespaceChanges(blankNamespace('ns', 0), { codecRequiredTaskQueues: ['*'] }, 0).codecRequiredTaskQueues, ['*']);
  });

  it('refuses a guard list that is not an array of valid names, or too long, naming the field and the entry', () => {
    const ns = blankNamespace('ns', 0);
    const refused: Array<[Parameters<typeof applyNamespaceChanges>[1], RegExp]> = [
      [{ codecRequiredTaskQueues: 'orders' as unknown as string[] }, /^'codecRequiredTaskQueues' must be an array of names, got string/],
      [{ refusedSearchAttributes: null as unknown as string[] }, /^'refusedSearchAttributes' must be an array of names, got null/],
      [{ codecRequiredTaskQueues: ['orders', 7 as unknown as string] }, /^'codecRequiredTaskQueues'\[1\] \(a task queue, or '\*' for every queue\) must be a non-empty string/],
      [{ codecRequiredTaskQueues: ['a.b'] }, /'codecRequiredTaskQueues'\[0\].* may contain only letters, digits/],
      [{ codecRequiredTaskQueues: ['q'.repeat(129)] }, /at most 128 are allowed/],
      [{ refusedSearchAttributes: [''] }, /^'refusedSearchAttributes'\[0\] \(a search attribute name\) must be a non-empty string/],
      [{ refusedSearchAttributes: ['bad\u0000name'] }, /control character U\+0000/],
      [{ refusedSearchAttributes: Array.from({ length: 101 }, (_, i) => `A${i}`) }, /^'refusedSearchAttributes' has 101 entries; at most 100 are allowed/],
      [{ codecRequiredTaskQueues: Array.from({ length: 1_000_000 }, () => 'q') }, /has 1000000 entries/],
    ];
    for (const [changes, message] of refused) {
      assert.throws(() => applyNamespaceChanges(ns, changes, 0), (e: unknown) => e instanceof InvalidNamespaceError && message.test(e.message), String(message));
    }
  });
});
