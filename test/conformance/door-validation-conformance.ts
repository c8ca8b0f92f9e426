import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { workflowKey } from '../../topics/catalog.js';
import type { Command } from '../../topics/schemas/command/index.js';
import { commandCodec } from '../../topics/serde/index.js';
import { startRequest } from '../../sdk/client/start-options.js';
import { InvalidArgumentError, WorkflowClient } from '../../sdk/client/workflow-client.js';
import { isFailure } from '../../processors/shard-runtime/shard-lifecycle.js';
import { resultOf, startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';

/**
 * The three requests that once broke shards for good — a start in namespace `a.b`, one in
 * `..%2F..%2Fetc`, one on task queue `../../q` — on one backend: refused at the door with 400
 * naming the rule, refused by both clients before sending, refused by the engine when written as
 * raw command records; afterwards ordinary workflows on every shard complete and no shard failed.
 */

const TIMER_WORKFLOWS = fileURLToPath(new URL('../workflows/timers.ts', import.meta.url));
const SHARDS = 4;

/** Registers the door-validation tests for one backend. */
export function doorValidationConformance(backend: 'kafka' | 'embedded'): void {
  let t: TestEngine;
  let server: Server;
  let address: string;
  const shardFailures: string[] = [];
  const queue = uniqueName('door').replaceAll('-', '_');

  before(async () => {
    t = await startTestEngine(backend, {
      shards: SHARDS,
      workers: false,
      extraWorkers: [{ taskQueue: queue, workflowsPath: TIMER_WORKFLOWS }],
      engine: { onShardTransition: (tr) => void (isFailure(tr) ? shardFailures.push(`${tr.shard}:${tr.to}`) : undefined) },
    });
    server = await serveGateway(t.engine);
    address = addressOf(server);
  });
  after(async () => {
    server.close();
    await t.stop();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${address}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as { code?: string; message?: string } };
  };

  test('the three starts get 400 INVALID_ARGUMENT naming the rule over HTTP', async () => {
    const start = { workflowId: uniqueName('w'), workflowType: 'sleeper', taskQueue: queue, args: [10] };
    const dotted = await post('/api/v1/namespaces/a.b/workflows', start);
    assert.deepEqual(dotted, { status: 400, json: { code: 'INVALID_ARGUMENT', message: "namespace 'a.b' may contain only letters, digits, '_' and '-' (it is part of a topic name)" } });
    const traversal = await post('/api/v1/namespaces/..%2F..%2Fetc/workflows', start);
    assert.deepEqual(traversal, { status: 400, json: { code: 'INVALID_ARGUMENT', message: "namespace '../../etc' may contain only letters, digits, '_' and '-' (it is part of a topic name)" } });
    const queued = await post('/api/v1/namespaces/default/workflows', { ...start, taskQueue: '../../q' });
    assert.deepEqual(queued, { status: 400, json: { code: 'INVALID_ARGUMENT', message: "taskQueue '../../q' may contain only letters, digits, '_' and '-', and '/' between them (it is part of a topic name)" } });
  });

  test('both clients refuse them before sending, with INVALID_ARGUMENT naming the rule', async () => {
    assert.throws(() => new WorkflowClient({ address, namespace: 'a.b' }), (e: unknown) => e instanceof InvalidArgumentError && /^namespace 'a\.b' may contain only/.test(e.message));
    const http = new WorkflowClient({ address });
    await assert.rejects(http.start('sleeper', { workflowId: uniqueName('w'), taskQueue: '../../q' }), (e: unknown) => e instanceof InvalidArgumentError && e.code === 'INVALID_ARGUMENT');
    for (const [namespace, taskQueue] of [['a.b', queue], ['../../etc', queue], ['default', '../../q']] as const) {
      await assert.rejects(t.engine.client.start({ namespace, workflowId: uniqueName('w'), workflowType: 'sleeper', taskQueue }), (e: unknown) => e instanceof InvalidArgumentError && /may contain only letters, digits, '_' and '-'/.test(e.message));
    }
  });

  test('written as raw command records, the engine refuses each with InvalidArgument and the shard goes on', async () => {
    const producer = await t.engine.log.producer();
    try {
      for (const [namespace, taskQueue] of [['a.b', queue], ['../../etc', queue], ['default', '../../q']] as const) {
        const workflowId = uniqueName('raw');
        const body = { type: 'StartWorkflowExecution' as const, ...startRequest({ workflowId, workflowType: 'sleeper', taskQueue: 'valid' }, t.engine.dataConverter, 'test'), taskQueue };
        const replyTo = { gatewayId: t.engine.replies.gatewayId, requestId: randomUUID() };
        const command: Command = { requestId: randomUUID(), namespace, workflowId, runId: null, replyTo, body };
        const reply = t.engine.replies.expect(replyTo.requestId, 30_000);
        await producer.send([{ topic: t.engine.catalog.commands, key: workflowKey(namespace, workflowId), value: await t.engine.serde.encode(commandCodec, command, t.engine.catalog.commands) }]);
        const answer = await reply;
        assert.deepEqual([answer.kind, answer.failure?.code], ['Error', 'InvalidArgument']);
        assert.match(answer.failure?.message ?? '', /may contain only letters, digits, '_' and '-'(, and '\/' between them)? \(it is part of a topic name\)/);
      }
    } finally {
      await producer.close();
    }
  });

  test('afterwards ordinary workflows on every shard complete, and no shard failed', async () => {
    const ids: string[] = [];
    const shards = new Set<number>();
    for (let i = 0; shards.size < SHARDS || ids.length < 12; i++) {
      const id = uniqueName(`after-${i}`);
      ids.push(id);
      shards.add(t.engine.catalog.shardOf('default', id));
    }
    await Promise.all(ids.map((id) => t.start('sleeper', queue, id, [10])));
    for (const id of ids) assert.ok(resultOf<{ sleptMs: number }>(t.engine, await t.result(id)).sleptMs >= 10);
    assert.deepEqual(shardFailures, []);
  });
}
