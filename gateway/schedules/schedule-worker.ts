/**
 * The engine-internal worker of the schedules: every engine node runs one per namespace it serves,
 * polling the internal task queue for scheduler workflow tasks and their activities. A schedule
 * lives in its scheduler workflow's history, so whichever node picks up its tasks carries on.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { SCHEDULER_TASK_QUEUE } from '../../sdk/schedules/scheduler-protocol.js';
import type { ActivityFunction } from '../../sdk/worker/activity-worker.js';
import { Worker } from '../../sdk/worker/worker.js';
import type { Engine } from '../engine.js';
import { engineHistoryFetcher } from '../engine-history-fetcher.js';
import { schedulerActivities } from './scheduler-activities.js';

/** The module of the scheduler workflow (bundled by the worker; replay tests bundle it too). */
export const SCHEDULER_WORKFLOWS = fileURLToPath(new URL('../../sdk/schedules/scheduler-workflow.ts', import.meta.url));

/**
 * Starts the scheduler worker of `namespace` on this node.
 * @example
 * const schedules = await startScheduleWorker(engine);   // … await schedules.stop(2_000) on shutdown
 */
export async function startScheduleWorker(engine: Engine, namespace = 'default'): Promise<Worker> {
  const worker = new Worker(engine.workerConnection(), {
    namespace,
    taskQueue: SCHEDULER_TASK_QUEUE,
    workflowsPath: SCHEDULER_WORKFLOWS,
    activities: schedulerActivities(engine) as unknown as Record<string, ActivityFunction>,
    history: engineHistoryFetcher(engine),
  });
  await worker.start();
  return worker;
}
