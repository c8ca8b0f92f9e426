import type { NextFunction, Request, Response } from 'express';
import { LogbookError } from '../topics/errors.js';
import { statusOfErrorCode } from '../topics/error-status.js';

/** A request the API refuses, with the HTTP status and a message naming the problem. */
export class HttpError extends LogbookError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, { retriable: status === 503 || status === 429 });
  }
}


/** True when the gateway answers the engine error `code` with a status of its own (else 500, or 503 when retriable). */
export function isKnownErrorCode(code: string): boolean {
  return statusOfErrorCode(code) !== undefined;
}

/** Fails with 400 unless `value` is a non-empty string. */
export function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new HttpError(400, 'INVALID_ARGUMENT', `'${name}' must be a non-empty string`);
  return value;
}

/** Fails with 400 unless `value` is absent or an array. */
export function optionalArray(value: unknown, name: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new HttpError(400, 'INVALID_ARGUMENT', `'${name}' must be an array of arguments`);
  return value;
}

/** The status and code of an error express raised before a route ran (a body it could not read, a path it could not decode). */
function requestError(error: unknown): { status: number; code: string; message: string } | undefined {
  const { status, type, message } = (error ?? {}) as { status?: unknown; type?: unknown; message?: unknown };
  if (error instanceof LogbookError || typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (error instanceof URIError) {
    // The router's message quotes the raw path segment: `Failed to decode param '%E0%A4%A'`.
    return { status: 400, code: 'INVALID_ARGUMENT', message: `the path has a malformed percent-escape (${String(message)}); encode each byte of a path segment as %XX` };
  }
  return { status, code: type === 'entity.parse.failed' ? 'INVALID_JSON' : 'INVALID_REQUEST', message: String(message) };
}

/** The express error handler: every error becomes JSON `{code, message}` with a fitting status. */
export function errorHandler(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if ((error as { type?: string }).type === 'entity.too.large') {
    // The body parser's limit: the body cannot hold payloads within the per-payload limit anyway.
    const limit = (error as { limit?: number }).limit;
    const size = limit === undefined ? '' : ` of ${limit} bytes`;
    res.status(413).json({ code: 'PayloadTooLarge', message: `the request body is larger than the gateway's limit${size} (payloads themselves are limited to 2 MiB each by default)` });
    return;
  }
  const refused = requestError(error);
  if (refused) {
    res.status(refused.status).json({ code: refused.code, message: refused.message });
    return;
  }
  // A client library's own error that says it may pass (a broker connection lost) is an outage, not a bug.
  const passing = !(error instanceof LogbookError) && (error as { retriable?: unknown } | null)?.retriable === true;
  const status =
    error instanceof HttpError
      ? error.status
      : error instanceof LogbookError
        ? (statusOfErrorCode(error.code) ?? (error.retriable ? 503 : 500))
        : passing ? 503 : 500;
  const code = error instanceof LogbookError ? error.code : passing ? 'UNAVAILABLE' : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  if (status === 503 || status === 429) res.setHeader('retry-after', String(error instanceof HttpError && error.retryAfterSeconds ? error.retryAfterSeconds : 1));
  res.status(status).json({ code, message });
}

/**
 * Sends the owner's answer to a forwarded request as this gateway's: its status, body and
 * `Retry-After` (a 503 from a failing-over owner must still tell the caller when to retry).
 */
export async function relayAnswer(res: Response, answer: globalThis.Response): Promise<void> {
  const retryAfter = answer.headers.get('retry-after');
  if (retryAfter !== null) res.setHeader('retry-after', retryAfter);
  else if (answer.status === 503 || answer.status === 429) res.setHeader('retry-after', '1');
  res.status(answer.status).type('application/json').send(Buffer.from(await answer.arrayBuffer()));
}
