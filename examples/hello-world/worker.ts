/**
 * The hello-world worker: a process of its own that runs no engine. It polls the gateway's task
 * endpoints (a dev server started with `npm start`), or, when LOGBOOK_KAFKA_BROKERS is set, reads
 * the deployment's task topics on those brokers (and pages histories from the gateway). Settings
 * from the environment: LOGBOOK_ADDRESS (the gateway, default 127.0.0.1:8233),
 * LOGBOOK_KAFKA_BROKERS, LOGBOOK_PREFIX (the deployment's topic prefix, default logbook).
 * Run: `npx tsx examples/hello-world/worker.ts`; stop it with Ctrl-C.
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from 'logbook/worker';
import * as activities from './activities.js';

const connection = await NativeConnection.connect({
  address: process.env.LOGBOOK_ADDRESS ?? '127.0.0.1:8233',
  ...(process.env.LOGBOOK_PREFIX ? { prefix: process.env.LOGBOOK_PREFIX } : {}),
});
const worker = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue: 'hello-world',
  workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
  activities,
});
console.log('worker polling task queue hello-world (Ctrl-C stops it)');
await worker.run();
await connection.close();
