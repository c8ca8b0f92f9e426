/**
 * A worker process as a Temporal user writes one, importing only `logbook/worker`: connects to
 * the deployment's brokers and gateway (or, without WORKER_BROKERS, to the gateway alone, whose
 * HTTP task endpoints hand out the tasks), runs the Temporal-compatible test workflows and
 * activities on one task queue until SIGTERM. Settings from the environment: WORKER_BROKERS,
 * WORKER_GATEWAY, WORKER_PREFIX (with brokers), WORKER_TASK_QUEUE. Prints `READY` once polling, `STOPPED` at the end,
 * and `ASYNC <orderId> <taskToken>` for each approval left to async completion.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from 'logbook/worker';
import * as activities from '../workflows/temporal-compatible-activities.js';

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const brokers = process.env.WORKER_BROKERS;
const connection = await NativeConnection.connect({
  address: setting('WORKER_GATEWAY'),
  ...(brokers ? { brokers: brokers.split(','), prefix: setting('WORKER_PREFIX') } : { taskPath: 'gateway' as const }),
});
const worker = await Worker.create({
  connection,
  taskQueue: setting('WORKER_TASK_QUEUE'),
  workflowsPath: fileURLToPath(new URL('../workflows/temporal-compatible.ts', import.meta.url)),
  activities,
  shutdownGraceTime: '2s',
});
activities.asyncApprovals.on('token', ({ orderId, taskToken }: { orderId: string; taskToken: string }) => console.log(`ASYNC ${orderId} ${taskToken}`));
const running = worker.run();
console.log('READY');
await running;
await connection.close();
console.log(`STOPPED ${worker.getState()}`);
