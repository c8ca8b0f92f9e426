/**
 * The hello-world client: starts the workflow through the gateway and prints its result.
 * LOGBOOK_ADDRESS names the gateway (default 127.0.0.1:8233).
 * Run: `npx tsx examples/hello-world/client.ts`.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from 'logbook/client';
import { example } from './workflows.js';

const connection = await Connection.connect({ address: process.env.LOGBOOK_ADDRESS ?? '127.0.0.1:8233' });
const client = new Client({ connection, namespace: 'default' });
const handle = await client.workflow.start(example, {
  taskQueue: 'hello-world',
  args: ['Temporal'],
  workflowId: `workflow-${randomUUID()}`,
});
console.log(`Started workflow ${handle.workflowId}`);
console.log(await handle.result());
