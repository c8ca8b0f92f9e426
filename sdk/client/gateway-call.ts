/**
 * One JSON call to the gateway's HTTP API, shared by the clients (workflows, updates, schedules,
 * namespaces): the body sent as JSON with the access's credentials, the answer parsed, an error
 * status turned into a {@link WorkflowClientError} with the engine's code and message.
 * @module
 */
import { LogbookError } from '../../topics/errors.js';
import type { GatewayAccess } from '../common/gateway-access.js';

/** A failed call to the gateway: the engine's stable code, its message and the HTTP status. */
export class WorkflowClientError extends LogbookError {
  constructor(
    code: string,
    message: string,
    readonly status: number,
  ) {
    super(code, message, { retriable: status === 503 || status === 429 || status === 504 });
  }
}

/** The error fields every gateway error answer has. */
export interface ErrorBody {
  code?: string;
  message?: string;
}

/**
 * The status and JSON body of one call (an empty object when the answer is not JSON).
 * @param access whose credentials the call carries; default none
 */
export async function exchangeJson<T extends object = ErrorBody>(method: string, url: string, body?: unknown, access?: GatewayAccess): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const init = {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  const response = await (access ? access.fetch(url, init) : fetch(url, init));
  return { status: response.status, json: (await response.json().catch(() => ({}))) as T };
}

/** The code of an answer without one (a proxy's page): what its status means, as the gateway names it. */
const CODE_OF_STATUS: Readonly<Record<number, string>> = { 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED' };

/**
 * The error a gateway answer with status `status` and body `json` stands for: a refused credential
 * is code `UNAUTHENTICATED` (401) or `PERMISSION_DENIED` (403) with the gateway's reason.
 */
export function clientErrorOf(status: number, json: ErrorBody): WorkflowClientError {
  return new WorkflowClientError(json.code ?? CODE_OF_STATUS[status] ?? 'HTTP_ERROR', json.message ?? `HTTP ${status}`, status);
}

/**
 * One call: the parsed answer of a 2xx status.
 * @param access whose credentials the call carries; default none
 * @throws WorkflowClientError for any other status (`UNAUTHENTICATED`, `PERMISSION_DENIED` for a refused credential)
 */
export async function gatewayCall<T>(method: string, url: string, body?: unknown, access?: GatewayAccess): Promise<T> {
  const { status, json } = await exchangeJson<ErrorBody>(method, url, body, access);
  if (status < 200 || status >= 300) throw clientErrorOf(status, json);
  return json as T;
}
