import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine, type EngineOptions } from '../../gateway/engine.js';
import { engineHistoryFetcher } from '../../gateway/engine-history-fetcher.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { Worker, type WorkerOptions } from '../../sdk/worker/worker.js';
import * as orderActivities from '../../examples/order/activities.js';
import * as travelActivities from '../../examples/travel/activities.js';
import { kafkaBrokers, uniqueName, waitFor } from './test-env.js';

/** An engine node with workers for the example queues, on a fresh deployment of one backend. */
export interface TestEngine {
  readonly engine: Engine;
  readonly workers: Worker[];
  /** Starts a workflow and returns its run id. */
  start(workflowType: string, taskQueue: string, workflowId: string, args: unknown[]): Promise<string>;
  /** Waits for the run's result reply. */
  result(workflowId: string, timeoutMs?: number): Promise<Reply>;
  signal(workflowId: string, name: string, args: unknown[]): Promise<void>;
  history(workflowId: string, runId: string): Promise<HistoryEvent[]>;
  stop(): Promise<void>;
}

/** Where the example workflows live. */
export const ORDER_WORKFLOWS = fileURLToPath(new URL('../../examples/order/workflows.ts', import.meta.url));
export const TRAVEL_WORKFLOWS = fileURLToPath(new URL('../../examples/travel/workflows.ts', import.meta.url));

/** Starts an engine (embedded in a temp dir, or on the test broker with a unique prefix) and example workers. */
export async function startTestEngine(
  backend: 'kafka' | 'embedded',
  options: {
    shards?: number;
    workers?: boolean;
    prefix?: string;
    extraWorkers?: WorkerOptions[];
    engine?: Partial<EngineOptions>;
    /** Run on this directory (an engine restarted on the data of an earlier one); kept on stop. */
    directory?: string;
  } = {},
): Promise<TestEngine> {
  const dir = options.directory ?? (await mkdtemp(join(tmpdir(), 'logbook-engine-')));
  const engine = await Engine.start({
    log: backend === 'kafka' ? { kind: 'kafka', brokers: kafkaBrokers() } : { kind: 'embedded', directory: join(dir, 'log') },
    prefix: options.prefix ?? uniqueName('lb').replaceAll('-', '_'),
    shards: options.shards ?? 4,
    dataDirectory: join(dir, 'node'),
    endpoint: 'http://127.0.0.1:0',
    ...options.engine,
  });
  // Every shard the node was given is open and running before the test goes on.
  await waitFor('the engine to be ready', async () => (await engine.health.readiness()).ready, 60_000);
  const history = engineHistoryFetcher(engine);
  const connection = engine.workerConnection();
  const workers: Worker[] = [];
  if (options.workers !== false) {
    workers.push(new Worker(connection, { taskQueue: 'orders', workflowsPath: ORDER_WORKFLOWS, activities: orderActivities, history, maxConcurrentWorkflowTasks: 20 }));
    workers.push(new Worker(connection, { taskQueue: 'travel', workflowsPath: TRAVEL_WORKFLOWS, activities: travelActivities, history }));
  }
  for (const extra of options.extraWorkers ?? []) workers.push(new Worker(connection, { history, ...extra }));
  for (const worker of workers) await worker.start();
  const client = engine.client;
  return {
    engine,
    workers,
    async start(workflowType, taskQueue, workflowId, args) {
      const reply = await client.start({ workflowId, workflowType, taskQueue, args });
      if (reply.kind === 'Error') throw new Error(`start of ${workflowId} failed: ${reply.failure?.message}`);
      return reply.runId!;
    },
    async result(workflowId, timeoutMs = 60_000) {
      const command = client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false });
      return (await client.send(command, { awaitReply: true, timeoutMs }))!;
    },
    async signal(workflowId, signalName, args) {
      const body = { type: 'SignalWorkflowExecution' as const, signalName, input: args.map((a) => engine.dataConverter.toPayload(a)), identity: 'test', header: {}, externalInitiator: null, childWorkflowOnly: false };
      await client.send(client.envelope('default', workflowId, body, { awaitReply: false }));
    },
    history: (workflowId, runId) => engine.history('default', workflowId, runId),
    async stop() {
      await Promise.all(workers.map((w) => w.stop(2_000)));
      await engine.stop();
      if (!options.directory) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The result payload of a reply, decoded. */
export function resultOf<T>(engine: Engine, reply: Reply): T {
  if (reply.kind !== 'Result' || !reply.payload) throw new Error(`expected a result, got ${reply.kind}: ${reply.failure?.message ?? ''}`);
  return engine.dataConverter.fromPayload<T>(reply.payload);
}
