/**
 * The gateway's HTTP API as the UI calls it.
 * @module
 */
import { decodeEnvelopes } from './codec.js';
import { bearerToken } from './session.js';

/** A refusal of the gateway: its code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

let onUnauthenticated: (message: string) => void = () => undefined;

/** What to do when the gateway answers 401 (the page shows the sign-in form). */
export function whenUnauthenticated(handler: (message: string) => void): void {
  onUnauthenticated = handler;
}

/**
 * One JSON call, with the bearer token when signed in; `$payload` envelopes in the answer are
 * decoded through the codec endpoint when one is set.
 * @throws ApiError for a non-2xx answer (after a 401, the sign-in form is shown)
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = bearerToken();
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const { code, message } = parsed as { code?: string; message?: string };
    if (response.status === 401) onUnauthenticated(message ?? 'this gateway requires a token');
    throw new ApiError(response.status, code ?? `HTTP ${response.status}`, message ?? text);
  }
  return (text.includes('"$payload"') ? await decodeEnvelopes(parsed) : parsed) as T;
}

/** `/api/v1/namespaces/{ns}` with each segment encoded. */
export function nsPath(namespace: string, ...segments: string[]): string {
  return ['/api/v1/namespaces', namespace, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
