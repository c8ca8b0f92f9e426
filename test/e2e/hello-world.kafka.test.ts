import { after, before, test } from 'node:test';
import { type Server } from 'node:http';
import { startTestEngine, type TestEngine } from '../support/test-engine.js';
import { kafkaBrokers } from '../support/test-env.js';
import { addressOf, serveGateway } from '../support/http-gateway.js';
import { stopTaskBridges } from '../../gateway/task-endpoints/task-bridges.js';
import { killNoEngineProcesses } from '../support/no-engine-process.js';
import { assertHelloWorldRuns } from '../support/hello-world-processes.js';

/**
 * The README's hello-world as a user runs it: `examples/hello-world/worker.ts` and `client.ts`,
 * each a process of its own with no engine code, against an engine on the real broker — the
 * worker on the task topics, and on the gateway's HTTP task path.
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
  server.closeAllConnections();
  server.close();
  await stopTaskBridges(t.engine);
  await t.stop();
});

test('the hello-world worker with LOGBOOK_KAFKA_BROKERS reads the task topics, the client prints the greeting, and the worker stops on SIGINT', async () => {
  await assertHelloWorldRuns(env);
});

test("the hello-world worker without brokers polls the gateway's task endpoints of the engine on the real broker, and the client gets the greeting", async () => {
  await assertHelloWorldRuns({ ...env, LOGBOOK_KAFKA_BROKERS: '' });
});
