/**
 * An engine node (and optionally the example workers) in a process of its own, for tests that
 * kill or stop processes. Configured by environment:
 *   LOGBOOK_KAFKA_BROKERS, ENGINE_PREFIX, ENGINE_SHARDS, ENGINE_DATA, ENGINE_PORT,
 *   ENGINE_ROLE = engine | workers | both,
 *   ENGINE_WORKER_GATEWAY (workers only: gateway URLs for history, comma-separated, tried in turn),
 *   ENGINE_WORKER_QUEUES (optional: the task queues whose workers run, comma-separated; default all but `chaos`,
 *     the fault harness's queue, which only test/chaos asks for),
 *   ENGINE_REPLICATION_FACTOR (optional: of the engine's topics; default the engine's),
 *   ENGINE_INGRESS (optional: an ingress file the engine loads, as `logbook dev --ingress FILE`),
 *   BENCH_ACTIVITY_LOG (a file the bench activity appends its executions to; see test/bench/workflows/activities.ts)
 * Prints `READY <endpoint>` once serving.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../gateway/engine.js';
import { transitionLine } from '../../processors/shard-runtime/shard-lifecycle.js';
import { createHttpApp } from '../../gateway/http-app.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import { gatewayHistoryFetcher } from '../../sdk/worker/gateway-history-fetcher.js';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { defaultClientId } from '../../topics/log/client-id.js';
import { resolveReplication } from '../../topics/replication.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import { SingleObjectSerde } from '../../topics/serde/index.js';
import { Worker, type WorkerOptions } from '../../sdk/worker/worker.js';
import * as orderActivities from '../../examples/order/activities.js';
import * as travelActivities from '../../examples/travel/activities.js';
import * as benchActivities from '../bench/workflows/activities.js';
import * as resumableActivities from './resumable-activities.js';
import type { HistoryFetcher } from '../../sdk/worker/workflow-worker.js';
import type { WorkerConnection } from '../../sdk/worker/worker-connection.js';
import { loadIngressFile } from '../../processors/ingress/ingress-file.js';
import { kafkaSecurityFromSettings, kafkaSecuritySettingsFromEnv } from '../../topics/log/kafka-security.js';

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
const replicationFactor = process.env.ENGINE_REPLICATION_FACTOR ? Number(process.env.ENGINE_REPLICATION_FACTOR) : undefined;
const queues = process.env.ENGINE_WORKER_QUEUES?.split(',') ?? ['orders', 'travel', 'timers', 'resume', 'bench'];

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
  const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
  const options: WorkerOptions[] = [
    { taskQueue: 'orders', workflowsPath: path('../../examples/order/workflows.ts'), activities: delayed, history },
    { taskQueue: 'travel', workflowsPath: path('../../examples/travel/workflows.ts'), activities: travelActivities, history },
    { taskQueue: 'timers', workflowsPath: path('../workflows/timers.ts'), history },
    { taskQueue: 'resume', workflowsPath: path('../workflows/heartbeat-resume.ts'), activities: resumableActivities, history },
    { taskQueue: 'bench', workflowsPath: path('../bench/workflows/index.ts'), activities: benchActivities, history, maxConcurrentWorkflowTasks: 50 },
    { taskQueue: 'chaos', workflowsPath: path('../chaos/workflows/index.ts'), activities: benchActivities, history, maxConcurrentWorkflowTasks: 50 },
  ];
  const workers = options.filter((o) => queues.includes(o.taskQueue)).map((o) => new Worker(connection, o));
  for (const w of workers) await w.start();
  return workers;
}

// SASL and TLS as a deployment sets them: LOGBOOK_KAFKA_SASL_* and LOGBOOK_KAFKA_TLS*.
const security = kafkaSecurityFromSettings(kafkaSecuritySettingsFromEnv(process.env));
const securityOption = security ? { security } : {};

if (role === 'workers') {
  const log = await openLog({ kind: 'kafka', brokers, clientId: defaultClientId('worker'), ...securityOption });
  // The task topics a worker creates get the replication the engine would give them.
  const replication = await resolveReplication(log.admin, replicationFactor ? { replicationFactor } : {});
  const connection = { log, catalog: topicCatalog({ prefix, shards, ...replication }), serde: new SingleObjectSerde(), dataConverter: defaultDataConverter };
  const workers = await startWorkers(connection, gatewayHistoryFetcher(env('ENGINE_WORKER_GATEWAY').split(',')));
  // A graceful stop that ends in exit(0), so a process run under --cpu-prof writes its profile.
  process.on('SIGTERM', async () => {
    setTimeout(() => process.exit(1), 15_000).unref();
    await Promise.all(workers.map((w) => w.stop(5_000))).catch(() => undefined);
    await log.close().catch(() => undefined);
    process.exit(0);
  });
  console.log('READY workers');
} else {
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const metrics = new EngineMetrics(false);
  const engine = await Engine.start({
    log: { kind: 'kafka', brokers, ...securityOption },
    prefix,
    shards,
    ...(replicationFactor ? { replicationFactor } : {}),
    dataDirectory: env('ENGINE_DATA'),
    endpoint,
    // `SHARD <n> <STATE> <the move>`: tests read when a shard runs and why one failed.
    onShardTransition: (t) => console.log(`SHARD ${t.shard} ${t.to} ${transitionLine(t)}`),
    onBatch: (shard, result) => metrics.recordBatch(shard, result),
    ...(process.env.ENGINE_INGRESS ? { ingress: loadIngressFile(process.env.ENGINE_INGRESS), ingressObserver: metrics.ingressObserver() } : {}),
  });
  metrics.watchIngress(() => engine.ingress.sources);
  server.on('request', createHttpApp({ engine, metrics: metrics.registry, selfEndpoint: endpoint }));
  const workers = role === 'both' ? await startWorkers(engine.workerConnection(), engineHistoryFetcher(engine)) : [];
  process.on('SIGTERM', async () => {
    setTimeout(() => {
      console.log('STOP timed out');
      process.exit(1);
    }, 15_000).unref();
    // As `logbook dev` does: the shards go to the other nodes at once; then the workers stop (their
    // tasks finish or are left to redelivery) before the log closes under them.
    await engine.handOverShards().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop(5_000))).catch(() => undefined);
    await engine.stop().catch(() => undefined);
    process.exit(0);
  });
  // Only now: a parent may send SIGTERM the moment it reads this line.
  console.log(`READY ${endpoint}`);
}
