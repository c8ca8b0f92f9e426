import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../gateway/engine.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { kafkaBrokers, uniqueName, waitFor } from '../support/test-env.js';

/** An engine node in this process whose advertised endpoint is its own HTTP server. */
interface Node {
  readonly engine: Engine;
  readonly endpoint: string;
  readonly server: Server;
}

async function startNode(prefix: string, dataDirectory: string): Promise<Node> {
  // The endpoint must be known before the engine joins the group: listen first, serve once it runs.
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const engine = await Engine.start({ log: { kind: 'kafka', brokers: kafkaBrokers() }, prefix, shards: 4, dataDirectory, endpoint });
  server.on('request', createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: endpoint }));
  return { engine, endpoint, server };
}

const served = (node: Node) => node.engine.node.ownedShards().filter((s) => node.engine.node.processor(s)?.localStore !== undefined);

test('with two in-process engines, a count and a list that cannot reach the node owning some shards answer 503 naming those shards, then the full count once they moved', async () => {
  const prefix = uniqueName('coverage').replaceAll('-', '_');
  const dirs = [await mkdtemp(join(tmpdir(), 'logbook-cov-')), await mkdtemp(join(tmpdir(), 'logbook-cov-'))];
  const a = await startNode(prefix, dirs[0]!);
  let b: Node | undefined = await startNode(prefix, dirs[1]!);
  try {
    await waitFor('both nodes to serve shards', async () => served(a).length > 0 && served(b!).length > 0 && served(a).length + served(b!).length === 4, 60_000);
    for (let i = 0; i < 8; i++) {
      const reply = await a.engine.client.start({ workflowId: `idle-${i}`, workflowType: 'idle', taskQueue: 'nobody' });
      assert.equal(reply.kind, 'StartAccepted');
    }
    const count = async () => {
      const response = await fetch(`${a.endpoint}/api/v1/namespaces/default/workflow-count`);
      return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as { count?: number; code?: string; message?: string } };
    };
    assert.deepEqual((await count()).json, { count: 8 });

    // B still owns its shards in the group, but its HTTP API is gone.
    const bShards = served(b);
    b.server.closeAllConnections();
    await new Promise((closed) => b!.server.close(closed));
    const partial = await count();
    assert.deepEqual([partial.status, partial.json.code, partial.retryAfter], [503, 'SHARD_UNAVAILABLE', '1'], JSON.stringify(partial.json));
    const which = bShards.length === 1 ? `shard ${bShards[0]}` : `shards ${bShards.join(', ')}`;
    assert.match(partial.json.message ?? '', new RegExp(`^cannot read ${which} of 4 right now`));
    const list = await fetch(`${a.endpoint}/api/v1/namespaces/default/workflows`);
    assert.equal(list.status, 503);

    await b.engine.stop();
    b = undefined;
    await waitFor('A to serve every shard', async () => served(a).length === 4, 60_000);
    assert.deepEqual((await count()).json, { count: 8 });
  } finally {
    if (b) {
      b.server.closeAllConnections();
      b.server.close();
      await b.engine.stop();
    }
    a.server.closeAllConnections();
    a.server.close();
    await a.engine.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
});
