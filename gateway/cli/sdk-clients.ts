/**
 * The SDK clients a command calls the gateway with, made from its context: its address, namespace,
 * `--api-key` (sent by the client on every call, as Temporal's `apiKey`) and `--tls-*` (Temporal's
 * `tls`: the CA trusted and the client certificate presented). Values cross them as
 * they are; the codec endpoint, not the client, encodes and decodes them (`codec-endpoint.ts`).
 * @module
 */
import { NamespaceClient } from '../../sdk/client/namespace-client.js';
import { ScheduleClient } from '../../sdk/client/schedule-client.js';
import { WorkflowClient } from '../../sdk/client/workflow-client.js';
import type { CliContext } from './context.js';

type Target = Pick<CliContext, 'address' | 'namespace' | 'apiKey' | 'tls'>;

const credentials = (c: Pick<Target, 'apiKey' | 'tls'>) => ({ ...(c.apiKey === undefined ? {} : { apiKey: c.apiKey }), ...(c.tls ? { tls: c.tls } : {}) });

/** The workflow client of the command's namespace. */
export function workflowClientOf(c: Target): WorkflowClient {
  return new WorkflowClient({ address: c.address, namespace: c.namespace, ...credentials(c) });
}

/** The schedule client of the command's namespace. */
export function scheduleClientOf(c: Target): ScheduleClient {
  return new ScheduleClient({ address: c.address, namespace: c.namespace, ...credentials(c) });
}

/** The namespace client (the namespace is each call's argument). */
export function namespaceClientOf(c: Target): NamespaceClient {
  return new NamespaceClient({ address: c.address, ...credentials(c) });
}
