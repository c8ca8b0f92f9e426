/**
 * An engine node (and optionally the example workers) in a process of its own, for tests that
 * kill or stop processes. Configured by environment:
 *   LOGBOOK_KAFKA_BROKERS, ENGINE_PREFIX, ENGINE_SHARDS, ENGINE_DATA, ENGINE_PORT,
 *   ENGINE_ROLE = engine | workers | both, ENGINE_WORKER_GATEWAY (workers only: a gateway URL for history),
 *   BENCH_ACTIVITY_LOG (a file the bench activity appends its executions to; see test/bench/workflows/activities.ts)
 * Prints `READY <endpoint>` once serving.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../gateway/engine.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { engineHistoryFetcher, gatewayHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { resolveReplication } from '../../topics/replication.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { SingleObjectSerde } from '../../topics/serde/index.js';
import { Worker } from '../../sdk/worker/worker.js';
import * as orderActivities from '../../examples/order/activities.js';
import * as travelActivities from '../../examples/travel/activities.js';
import * as benchActivities from '../bench/workflows/activities.js';
import * as resumableActivities from './resumable-activities.js';
import type { HistoryFetcher } from '../../sdk/worker/workflow-worker.js';
import type { WorkerConnection } from '../../sdk/worker/worker-connection.js';

// The test that started this process holds our stdin; when it goes away, so do we.
process.stdin.on('end', () => process.exit(1));
process.stdin.resume();

const env = (name: string, fallback?: string) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};
const brokers = env('LOGBOOK_KAFKA_BROKERS').split(',');
const prefix = env('ENGINE_PREFIX');
const shards = Number(env('ENGINE_SHARDS', '8'));
const role = env('ENGINE_ROLE', 'both');
const port = Number(env('ENGINE_PORT', '0'));

async function startWorkers(connection: WorkerConnection, history: HistoryFetcher): Promise<Worker[]> {
  const slow = Number(process.env.ENGINE_SLOW_ACTIVITY_MS ?? '0');
  // ENGINE_SLOW_ACTIVITY_MS slows reserveStock down, so a test can kill a worker in the middle of it.
  const delayed = {
    ...orderActivities,
    reserveStock: async (...args: Parameters<typeof orderActivities.reserveStock>) => {
      if (slow) await new Promise((r) => setTimeout(r, slow));
      return orderActivities.reserveStock(...args);
    },
  };
  const workers = [
    new Worker(connection, { taskQueue: 'orders', workflowsPath: fileURLToPath(new URL('../../examples/order/workflows.ts', import.meta.url)), activities: delayed, history }),
    new Worker(connection, { taskQueue: 'travel', workflowsPath: fileURLToPath(new URL('../../examples/travel/workflows.ts', import.meta.url)), activities: travelActivities, history }),
    new Worker(connection, { taskQueue: 'timers', workflowsPath: fileURLToPath(new URL('../workflows/timers.ts', import.meta.url)), history }),
    new Worker(connection, { taskQueue: 'resume', workflowsPath: fileURLToPath(new URL('../workflows/heartbeat-resume.ts', import.meta.url)), activities: resumableActivities, history }),
    new Worker(connection, { taskQueue: 'bench', workflowsPath: fileURLToPath(new URL('../bench/workflows/index.ts', import.meta.url)), activities: benchActivities, history, maxConcurrentWorkflowTasks: 50 }),
  ];
  for (const w of workers) await w.start();
  return workers;
}

if (role === 'workers') {
  const log = await openLog({ kind: 'kafka', brokers });
  // The task topics a worker creates get the replication the engine would give them.
  const connection = { log, catalog: topicCatalog({ prefix, shards, ...(await resolveReplication(log.admin)) }), serde: new SingleObjectSerde(), dataConverter: defaultDataConverter };
  await startWorkers(connection, gatewayHistoryFetcher(env('ENGINE_WORKER_GATEWAY')));
  console.log('READY workers');
} else {
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const metrics = new EngineMetrics(false);
  const engine = await Engine.start({
    log: { kind: 'kafka', brokers },
    prefix,
    shards,
    dataDirectory: env('ENGINE_DATA'),
    endpoint,
    onShardEvent: (e) => console.log(`SHARD ${e.shard} ${e.kind}${e.error ? ` ${(e.error as Error).message}` : ''}`),
    onBatch: (shard, result) => metrics.recordBatch(shard, result),
  });
  server.on('request', createHttpApp({ engine, metrics: metrics.registry, selfEndpoint: endpoint }));
  const workers = role === 'both' ? await startWorkers(engine.workerConnection(), engineHistoryFetcher(engine)) : [];
  process.on('SIGTERM', async () => {
    setTimeout(() => {
      console.log('STOP timed out');
      process.exit(1);
    }, 15_000).unref();
    // As `logbook dev` does: the shards go to the other nodes at once; then the workers stop before
    // the log closes, as a task consumer whose log was closed under it polls in a loop that never
    // yields to timers or I/O.
    await engine.handOverShards().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop(5_000))).catch(() => undefined);
    await engine.stop().catch(() => undefined);
    process.exit(0);
  });
  // Only now: a parent may send SIGTERM the moment it reads this line.
  console.log(`READY ${endpoint}`);
}
