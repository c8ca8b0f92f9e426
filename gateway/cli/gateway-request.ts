/**
 * A gateway call the CLI makes itself (no SDK client has the route): JSON both ways, with the
 * `--api-key` and `--tls-*` settings of the command (through the SDK's `GatewayAccess`, as its
 * clients call), and the gateway's error answer as the SDK's `WorkflowClientError`, so `errors.ts`
 * reports it like any client's.
 * @module
 */
import { clientErrorOf, type ErrorBody } from '../../sdk/client/gateway-call.js';
import { GatewayAccess } from '../../sdk/common/gateway-access.js';
import type { CliContext } from './context.js';

/**
 * `method` on `path` (from the gateway's base, e.g. `/api/v1/audit`): the parsed answer of a 2xx.
 * @throws WorkflowClientError for any other status
 */
export async function gatewayRequest<T>(c: Pick<CliContext, 'address' | 'apiKey' | 'tls'>, method: string, path: string): Promise<T> {
  const access = new GatewayAccess(c.address, { ...(c.apiKey === undefined ? {} : { apiKey: c.apiKey }), ...(c.tls ? { tls: c.tls } : {}) });
  const response = await access.fetch(`${c.address}${path}`, { method });
  const json = (await response.json().catch(() => ({}))) as ErrorBody;
  if (!response.ok) throw clientErrorOf(response.status, json);
  return json as T;
}
