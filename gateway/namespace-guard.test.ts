import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request, Response } from 'express';
import { applyNamespaceChanges, blankNamespace, builtInDefaultNamespace } from '../processors/namespaces/namespace-model.js';
import type { Namespace } from '../topics/schemas/namespace/index.js';
import type { Engine } from './engine.js';
import type { HttpError } from './http-errors.js';
import { NamespaceGuard } from './namespace-guard.js';

function guardOver(namespaces: Namespace[], requireRegistration: boolean, clock: () => number = () => 0): NamespaceGuard {
  const byName = new Map([builtInDefaultNamespace, ...namespaces].map((n) => [n.name, n]));
  const engine = { namespaces: { get: (name: string) => byName.get(name) }, requireRegisteredNamespaces: requireRegistration };
  return new NamespaceGuard(engine as unknown as Engine, clock);
}

/** What the guard passes to next(): undefined (go on) or the HttpError. */
function check(guard: NamespaceGuard, namespace: string, method: string, path: string): HttpError | undefined {
  let outcome: unknown = 'next() was not called';
  guard.check({ params: { namespace }, method, path } as unknown as Request, {} as Response, (error?: unknown) => (outcome = error));
  return outcome as HttpError | undefined;
}

describe('namespace guard', () => {
  it('lets calls in unregistered namespaces through unless registration is required, then answers 404 NamespaceNotFound', () => {
    assert.equal(check(guardOver([], false), 'adhoc', 'POST', '/workflows'), undefined);
    const refused = check(guardOver([], true), 'adhoc', 'POST', '/workflows');
    assert.deepEqual([refused?.status, refused?.code], [404, 'NamespaceNotFound']);
    assert.equal(check(guardOver([], true), 'default', 'POST', '/workflows'), undefined, 'default always exists');
  });

  it('refuses starts (start, signal-with-start, update-with-start, a new schedule) in a deprecated namespace with 409, and lets its other calls through', () => {
    const deprecated = applyNamespaceChanges(blankNamespace('old', 0), { state: 'Deprecated' }, 0);
    const guard = guardOver([deprecated], true);
    assert.equal(check(guard, 'old', 'POST', '/workflows')?.code, 'NamespaceDeprecated');
    assert.equal(check(guard, 'old', 'POST', '/workflows/w-1/signal-with-start')?.status, 409);
    assert.equal(check(guard, 'old', 'POST', '/workflows/w-1/update-with-start/addItem')?.status, 409);
    assert.equal(check(guard, 'old', 'POST', '/schedules')?.status, 409);
    assert.equal(check(guard, 'old', 'POST', '/workflows/w-1/update/addItem'), undefined);
    assert.equal(check(guard, 'old', 'POST', '/schedules/nightly/pause'), undefined);
    assert.equal(check(guard, 'old', 'POST', '/workflows/w-1/signals/go'), undefined);
  });

  it('counts starts against startsPerSecond and every call against apiCallsPerSecond, but not task polls', () => {
    let now = 0;
    const limited = applyNamespaceChanges(blankNamespace('ns', 0), { startsPerSecond: 1, apiCallsPerSecond: 3 }, 0);
    const guard = guardOver([limited], false, () => now);
    assert.equal(check(guard, 'ns', 'POST', '/workflows'), undefined);
    const start = check(guard, 'ns', 'POST', '/workflows');
    assert.deepEqual([start?.status, start?.code, start?.retryAfterSeconds], [429, 'RESOURCE_EXHAUSTED', 1]);
    assert.match(start!.message, /startsPerSecond \(1\/s\)/);
    assert.equal(check(guard, 'ns', 'GET', '/workflow-count'), undefined);
    const api = check(guard, 'ns', 'GET', '/workflow-count');
    assert.match(api!.message, /apiCallsPerSecond \(3\/s\)/);
    for (let i = 0; i < 10; i++) assert.equal(check(guard, 'ns', 'POST', '/task-queues/q/workflow-tasks/poll'), undefined);
    now = 1_000;
    assert.equal(check(guard, 'ns', 'POST', '/workflows'), undefined, 'a second later a token is back');
  });
});
