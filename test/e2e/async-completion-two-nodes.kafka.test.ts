import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from 'logbook/client';
import { NativeConnection, Worker } from 'logbook/worker';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { approvedAsync } from '../workflows/temporal-compatible.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { uniqueName, waitFor } from '../support/test-env.js';

/**
 * Async completion on a deployment of two engine nodes on the real broker: a completion sent to
 * the node that does not own the run's shard is forwarded to the one that does.
 */

const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));
const taskQueue = uniqueName('async-two-nodes');
const nodes: Array<{ t: TestEngine; server: Server; endpoint: string }> = [];
let worker: Worker;
let running: Promise<void>;

before(async () => {
  const prefix = uniqueName('lb_async2').replaceAll('-', '_');
  for (let i = 0; i < 2; i++) {
    const server = createServer();
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const t = await startTestEngine('kafka', { workers: false, prefix, shards: 4, engine: { endpoint } });
    server.on('request', createHttpApp({ engine: t.engine, metrics: new EngineMetrics(false).registry, selfEndpoint: endpoint }));
    nodes.push({ t, server, endpoint });
  }
  await waitFor('both nodes to own shards', async () => nodes.every(({ t }) => t.engine.node.ownedShards().length > 0) || undefined, 60_000);
  const first = nodes[0]!.t.engine;
  worker = await Worker.create({ connection: NativeConnection.fromParts(first.workerConnection(), engineHistoryFetcher(first)), taskQueue, workflowsPath: WORKFLOWS, activities });
  running = worker.run();
});
after(async () => {
  worker.shutdown();
  await running;
  for (const { t, server } of nodes.reverse()) {
    server.close();
    await t.stop();
  }
});

test('a completion sent to the node that does not own the run\'s shard is forwarded to the owner and completes the activity', async () => {
  const client = (endpoint: string) => new Client({ connection: Connection.lazy({ address: endpoint }) });
  let forwarded = 0;
  for (let i = 0; i < 6; i++) {
    const orderId = uniqueName('two-nodes');
    const announced = new Promise<string>((resolve) => {
      const listener = (token: { orderId: string; taskToken: string }) => {
        if (token.orderId !== orderId) return;
        activities.asyncApprovals.off('token', listener);
        resolve(token.taskToken);
      };
      activities.asyncApprovals.on('token', listener);
    });
    const handle = await client(nodes[0]!.endpoint).workflow.start(approvedAsync, { taskQueue, workflowId: orderId, args: [orderId] });
    const taskToken = await announced;
    const owner = await nodes[0]!.t.engine.ownerOf('default', orderId);
    const other = nodes.find((n) => n.endpoint !== owner)!;
    if (owner !== other.endpoint) forwarded++;
    await client(other.endpoint).activity.complete(taskToken, `approved via ${other.endpoint === owner ? 'owner' : 'other'}`);
    assert.equal(await handle.result(), 'approved via other');
  }
  assert.equal(forwarded, 6, 'every completion went to the node without the shard');
});
