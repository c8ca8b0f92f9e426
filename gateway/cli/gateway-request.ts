/**
 * A gateway call the CLI makes itself (no SDK client has the route): JSON both ways, with the
 * `--api-key` of the command, and the gateway's error answer as the SDK's `WorkflowClientError`,
 * so `errors.ts` reports it like any client's.
 * @module
 */
import { clientErrorOf, type ErrorBody } from '../../sdk/client/gateway-call.js';
import type { CliContext } from './context.js';

/** The headers of every gateway call of a command: its API key as a bearer token. */
export function gatewayHeaders(c: Pick<CliContext, 'apiKey'>): Record<string, string> {
  return c.apiKey === undefined ? {} : { authorization: `Bearer ${c.apiKey}` };
}

/**
 * `method` on `path` (from the gateway's base, e.g. `/api/v1/audit`): the parsed answer of a 2xx.
 * @throws WorkflowClientError for any other status
 */
export async function gatewayRequest<T>(c: Pick<CliContext, 'address' | 'apiKey'>, method: string, path: string): Promise<T> {
  const response = await fetch(`${c.address}${path}`, { method, headers: gatewayHeaders(c) });
  const json = (await response.json().catch(() => ({}))) as ErrorBody;
  if (!response.ok) throw clientErrorOf(response.status, json);
  return json as T;
}
