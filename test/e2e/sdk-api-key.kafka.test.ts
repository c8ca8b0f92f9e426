import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { Client, Connection, ServiceError } from 'logbook/client';
import { NativeConnection, Worker } from 'logbook/worker';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { approval, approve, greet, stage } from '../workflows/temporal-compatible.js';
import * as activities from '../workflows/temporal-compatible-activities.js';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { kafkaBrokers, uniqueName } from '../support/test-env.js';

/**
 * The Kafka-native client, `Connection.connect({ brokers, address, apiKey })`, on the real broker:
 * commands go to the command topic (Kafka's own ACLs guard it), and the reads that go through a
 * gateway run with `--auth` — describe, queries, history — carry the key.
 */

const SECRET = 'sdk-api-key-kafka-secret-of-32-bytes-or-more';
const WORKFLOWS = fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url));

let t: TestEngine;
let server: Server;
let worker: Worker;
let running: Promise<void>;
const connections: Connection[] = [];
const taskQueue = uniqueName('kafka-api-key');

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(claims.sub)).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
}

async function kafkaClient(apiKey?: string): Promise<Client> {
  const connection = await Connection.connect({ brokers: kafkaBrokers(), prefix: t.engine.catalog.prefix, address: addressOf(server), ...(apiKey ? { apiKey } : {}) });
  connections.push(connection);
  return new Client({ connection });
}

before(async () => {
  t = await startTestEngine('kafka', { workers: false, shards: 2 });
  server = await serveGateway(t.engine, { auth: { jwt: { secret: new TextEncoder().encode(SECRET) } } });
  worker = await Worker.create({ connection: NativeConnection.fromParts(t.engine.workerConnection(), engineHistoryFetcher(t.engine)), taskQueue, workflowsPath: WORKFLOWS, activities });
  running = worker.run();
});
after(async () => {
  worker.shutdown();
  await running;
  await Promise.all(connections.map((c) => c.close()));
  server.closeAllConnections();
  server.close();
  await t.stop();
});

test('a Kafka-native client with a key reads describe, a query and the history through the authenticating gateway; without a key those reads are UNAUTHENTICATED', async () => {
  const client = await kafkaClient(await token({ sub: 'kafka-client', permissions: ['default:writer'] }));
  assert.equal(await client.workflow.execute(greet, { taskQueue, workflowId: uniqueName('greet'), args: ['Kafka'] }), 'Hello, Kafka!');
  const handle = await client.workflow.start(approval, { taskQueue, workflowId: uniqueName('approval') });
  assert.equal(await handle.query(stage), 'waiting for approval');
  assert.equal((await handle.describe()).status.name, 'RUNNING');

  const anonymous = await kafkaClient();
  const sameRun = anonymous.workflow.getHandle(handle.workflowId);
  for (const read of [() => sameRun.describe(), () => sameRun.query(stage), () => sameRun.fetchHistory()]) {
    await assert.rejects(read(), (error: unknown) => {
      assert.ok(error instanceof ServiceError, String(error));
      assert.equal(error.code, 'UNAUTHENTICATED');
      return true;
    });
  }

  await handle.signal(approve, 'kafka-client');
  assert.match(await handle.result(), /kafka-client/);
  assert.ok((await handle.fetchHistory()).events!.length > 0);
});
