import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';

/**
 * Every new task queue is four topics, so task queues are bounded: past a namespace's limit (or
 * the deployment's) a start that would dispatch to a new queue, or an HTTP poll of one, is refused
 * with LimitExceeded naming the limit, and no topic is created for it.
 */
export function taskQueueLimitsConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  before(async () => {
    t = await startTestEngine(backend, { shards: 2, workers: false, engine: { taskQueueLimits: { perNamespace: 3, total: 5 } } });
    server = await serveGateway(t.engine);
  });
  after(async () => {
    server.close();
    await t.stop();
  });

  const start = (namespace: string, taskQueue: string) => t.engine.client.start({ namespace, workflowId: uniqueName('q'), workflowType: 'anything', taskQueue });
  const queuesOf = async (namespace: string) =>
    new Set((await t.engine.log.admin.listTopics()).filter((n) => n.startsWith(`${t.engine.catalog.prefix}.tasks.workflow.${namespace}.`)));

  test('starts on new task queues past the namespace\'s limit and the deployment\'s are refused with LimitExceeded, and create no topics', async () => {
    for (const q of ['q1', 'q2', 'q3']) assert.equal((await start('default', q)).kind, 'StartAccepted');
    assert.equal((await start('default', 'q1')).kind, 'StartAccepted', 'a queue that exists takes more work');
    const refused = await start('default', 'q4');
    assert.equal(refused.kind, 'Error');
    assert.equal(refused.failure?.code, 'LimitExceeded');
    assert.match(refused.failure!.message, /namespace default already has 3 task queues, its limit/);
    assert.equal((await queuesOf('default')).size, 3);
    for (const q of ['a1', 'a2']) assert.equal((await start('other', q)).kind, 'StartAccepted');
    const overall = await start('other', 'a3');
    assert.equal(overall.failure?.code, 'LimitExceeded');
    assert.match(overall.failure!.message, /the deployment already has 5 task queues/);
  });

  test('an HTTP poll of a new task queue past the limit is answered 409 LimitExceeded, and the gateway creates no topics for it', async () => {
    const res = await fetch(`${addressOf(server)}/api/v1/namespaces/default/task-queues/polled-q/workflow-tasks/poll`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identity: 'poller', waitMs: 100 }),
    });
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { code: string }).code, 'LimitExceeded');
    assert.equal((await queuesOf('default')).size, 3);
  });
}
