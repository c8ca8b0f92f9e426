/**
 * The gateway's HTTP API as the UI calls it.
 * @module
 */

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

/** One JSON call; a non-2xx answer throws {@link ApiError}. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const { code, message } = parsed as { code?: string; message?: string };
    throw new ApiError(response.status, code ?? `HTTP ${response.status}`, message ?? text);
  }
  return parsed as T;
}

/** `/api/v1/namespaces/{ns}` with each segment encoded. */
export function nsPath(namespace: string, ...segments: string[]): string {
  return ['/api/v1/namespaces', namespace, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
