/**
 * One JSON call to the gateway's HTTP API, shared by the clients (workflows, updates, schedules,
 * namespaces): the body sent as JSON, the answer parsed, an error status turned into a
 * {@link WorkflowClientError} with the engine's code and message.
 * @module
 */
import { LogbookError } from '../../topics/errors.js';

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

/** The status and JSON body of one call (an empty object when the answer is not JSON). */
export async function exchangeJson<T extends object = ErrorBody>(method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json().catch(() => ({}))) as T };
}

/** The error a gateway answer with status `status` and body `json` stands for. */
export function clientErrorOf(status: number, json: ErrorBody): WorkflowClientError {
  return new WorkflowClientError(json.code ?? 'HTTP_ERROR', json.message ?? `HTTP ${status}`, status);
}

/**
 * One call: the parsed answer of a 2xx status.
 * @throws WorkflowClientError for any other status
 */
export async function gatewayCall<T>(method: string, url: string, body?: unknown): Promise<T> {
  const { status, json } = await exchangeJson<ErrorBody>(method, url, body);
  if (status < 200 || status >= 300) throw clientErrorOf(status, json);
  return json as T;
}
