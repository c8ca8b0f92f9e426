import { fileURLToPath } from 'node:url';
import * as orderActivities from '../examples/order/activities.js';
import * as travelActivities from '../examples/travel/activities.js';
import { Worker } from '../sdk/worker/worker.js';
import type { Engine } from './engine.js';
import { engineHistoryFetcher } from './engine-history-fetcher.js';
import type { EngineMetrics } from './metrics.js';

/**
 * Starts in-process workers for the example workflows: the `orders`, `travel` and `polyglot` task
 * queues (the last one's activities run in the Python worker of `examples/python`).
 */
export async function startExampleWorkers(engine: Engine, metrics: EngineMetrics): Promise<Worker[]> {
  const connection = engine.workerConnection();
  const history = engineHistoryFetcher(engine);
  const hooks = {
    onWorkflowTask: (e: Parameters<EngineMetrics['recordWorkflowTask']>[0]) => metrics.recordWorkflowTask(e),
    onActivity: (e: Parameters<EngineMetrics['recordActivity']>[0]) => metrics.recordActivity(e),
    onLag: (topic: string, partition: number, lag: number) => metrics.lag.set({ topic, partition: String(partition) }, lag),
  };
  const workers = [
    new Worker(connection, {
      taskQueue: 'orders',
      workflowsPath: fileURLToPath(new URL('../examples/order/workflows.ts', import.meta.url)),
      activities: orderActivities,
      history,
      ...hooks,
    }),
    new Worker(connection, {
      taskQueue: 'travel',
      workflowsPath: fileURLToPath(new URL('../examples/travel/workflows.ts', import.meta.url)),
      activities: travelActivities,
      history,
      ...hooks,
    }),
    new Worker(connection, {
      taskQueue: 'polyglot',
      workflowsPath: fileURLToPath(new URL('../examples/polyglot/workflows.ts', import.meta.url)),
      activities: {},
      history,
      ...hooks,
    }),
  ];
  for (const worker of workers) await worker.start();
  return workers;
}
