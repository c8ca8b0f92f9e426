import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { Log } from '../topics/log/log.js';
import { RetriableLogError } from '../topics/errors.js';
import { addressOf, serveGateway } from '../test/support/http-gateway.js';
import { waitFor } from '../test/support/test-env.js';
import { Engine, type EngineOptions } from './engine.js';
import { requireEveryShard, scanLocalVisibility } from './shard-coverage.js';

interface Harness {
  engine: Engine;
  get(path: string): Promise<{ status: number; retryAfter: string | null; json: { code?: string; message?: string; count?: number; events?: unknown[] } }>;
  /** A workflow id of `shard`, started (no worker: it stays Running with its first two events). */
  startOn(shard: number, name: string): Promise<string>;
  close(): Promise<void>;
}

async function harness(options: Partial<EngineOptions> = {}): Promise<Harness> {
  const directory = await mkdtemp(join(tmpdir(), 'logbook-coverage-'));
  const engine = await Engine.start({ log: { kind: 'embedded', directory: join(directory, 'log') }, dataDirectory: join(directory, 'data'), endpoint: 'http://127.0.0.1:0', shards: 2, ...options });
  const server: Server = await serveGateway(engine);
  const base = `${addressOf(server)}/api/v1/namespaces/default`;
  return {
    engine,
    async get(path) {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as never };
    },
    async startOn(shard, name) {
      let id = name;
      for (let i = 0; engine.catalog.shardOf('default', id) !== shard; i++) id = `${name}-${i}`;
      const reply = await engine.client.start({ workflowId: id, workflowType: 'idle', taskQueue: 'nobody' });
      assert.equal(reply.kind, 'StartAccepted');
      return id;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await engine.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A log whose transactional producer for the history of `shard` cannot be created while `blocked()`: the shard never starts. */
function withUnstartableShard(shard: number, blocked: () => boolean): (log: Log) => Log {
  return (log) => ({
    ...log,
    kind: log.kind,
    admin: log.admin,
    maxRecordBytes: log.maxRecordBytes,
    producer: () => log.producer(),
    transactionalProducer: async (id, options) => {
      if (blocked() && id.endsWith(`-history-${shard}`)) throw new RetriableLogError(`injected: ${id} cannot be initialised`);
      return log.transactionalProducer(id, options);
    },
    groupConsumer: (o) => log.groupConsumer(o),
    readPartition: (topic, partition, from, onRecords, o) => log.readPartition(topic, partition, from, onRecords, o),
    endOffset: (topic, partition) => log.endOffset(topic, partition),
    identity: () => log.identity(),
    close: () => log.close(),
  });
}

test('count and list answer 503 SHARD_UNAVAILABLE naming a shard this node is assigned but cannot serve, not a short count', async () => {
  let blocked = true;
  const h = await harness({ wrapLog: withUnstartableShard(1, () => blocked) });
  try {
    await waitFor('shard 0 to run', async () => h.engine.node.ownedShards().includes(0) && h.engine.node.processor(0)?.localStore !== undefined);
    await h.startOn(0, 'zero');
    for (const path of ['/workflow-count', '/workflows']) {
      const answer = await h.get(path);
      assert.equal(answer.status, 503, `${path}: ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.code, 'SHARD_UNAVAILABLE');
      assert.match(answer.json.message ?? '', /^cannot read shard 1 of 2 right now/);
      assert.equal(answer.retryAfter, '1');
    }
    blocked = false;
    await waitFor('shard 1 to start once it can', async () => h.engine.node.processor(1)?.localStore !== undefined, 10_000);
    await h.startOn(1, 'one');
    assert.deepEqual([(await h.get('/workflow-count')).status, (await h.get('/workflow-count')).json.count], [200, 2]);
  } finally {
    blocked = false;
    await h.close();
  }
});

test('a read that reaches a shard store closed under it answers 503 SHARD_UNAVAILABLE with Retry-After, never 500', async () => {
  const h = await harness();
  try {
    await waitFor('both shards to run', async () => [0, 1].every((s) => h.engine.node.processor(s)?.localStore !== undefined));
    const id = await h.startOn(1, 'closing');
    await h.engine.node.processor(1)!.localStore!.close();
    const history = await h.get(`/workflows/${id}/history`);
    assert.deepEqual([history.status, history.json.code, history.retryAfter], [503, 'SHARD_UNAVAILABLE', '1'], JSON.stringify(history.json));
    const count = await h.get('/workflow-count');
    assert.deepEqual([count.status, count.json.code], [503, 'SHARD_UNAVAILABLE']);
    assert.match(count.json.message ?? '', /cannot read shard 1 of 2/);
  } finally {
    await h.close();
  }
});

test('a visibility scan whose store closes mid-iteration ("Iterator is not open") leaves that shard out of its coverage', async () => {
  const h = await harness();
  try {
    await waitFor('both shards to run', async () => [0, 1].every((s) => h.engine.node.processor(s)?.localStore !== undefined));
    for (let i = 0; i < 5; i++) await h.startOn(0, `scan-${i}`);
    const store = h.engine.node.processor(0)!.localStore!;
    let seen = 0;
    const scan = await scanLocalVisibility(h.engine, () => {
      if (seen++ === 0) void store.close();
      return true;
    });
    assert.deepEqual(scan.shards, [1]);
    assert.throws(() => requireEveryShard(h.engine, scan.shards), { code: 'SHARD_UNAVAILABLE', message: /^cannot read shard 0 of 2/ });
  } finally {
    await h.close();
  }
});
