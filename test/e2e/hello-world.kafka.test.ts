import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Server } from 'node:http';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { killNoEngineProcesses, startNoEngineProcess } from '../support/no-engine-process.js';

/**
 * The README's hello-world as a user runs it: `examples/hello-world/worker.ts` and `client.ts`,
 * each a process of its own with no engine code, against an engine on the real broker.
 */

let t: TestEngine;
let server: Server;
let env: Record<string, string>;

before(async () => {
  t = await startTestEngine('kafka', { workers: false });
  server = await serveGateway(t.engine);
  env = { LOGBOOK_KAFKA_BROKERS: kafkaBrokers().join(','), LOGBOOK_ADDRESS: addressOf(server).replace('http://', ''), LOGBOOK_PREFIX: t.engine.catalog.prefix };
});
after(async () => {
  killNoEngineProcesses();
  server.close();
  await t.stop();
});

test('the hello-world worker and client, run as the README says, print the greeting, and the worker stops on SIGINT', async () => {
  const worker = await startNoEngineProcess(['examples/hello-world/worker.ts'], env, /worker polling task queue hello-world/);
  const client = await startNoEngineProcess(['examples/hello-world/client.ts'], env, null);
  assert.equal(await client.exited, 0, client.output.join(''));
  assert.match(client.output.join(''), /^Started workflow workflow-[0-9a-f-]{36}\nHello, Temporal!\n$/);
  worker.process.kill('SIGINT');
  assert.equal(await worker.exited, 0, worker.output.join(''));
});
