import type { DataConverter, Payload } from '../../topics/payload/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import { HttpError } from '../http-errors.js';
import { fromRawView } from '../../topics/wire/raw-view.js';

/** The JSON body of a request as an object (express leaves it undefined without a JSON content type). */
export function bodyOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A raw-view payload `{metadata: {k: {$b64}}, data: {$b64}}` as a Payload; 400 naming `field` otherwise. */
export function rawPayload(value: unknown, field: string): Payload {
  const p = fromRawView(value) as { metadata?: unknown; data?: unknown } | null;
  const metadata = p?.metadata as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object' || !Buffer.isBuffer(p.data) || !metadata || typeof metadata !== 'object' || !Object.values(metadata).every((v) => Buffer.isBuffer(v))) {
    throw invalid(`'${field}' must be a raw payload {metadata: {name: {$b64}}, data: {$b64}}`);
  }
  return { metadata: metadata as Record<string, Buffer>, data: p.data };
}

/** An optional JSON value as a payload of the engine's data converter (null when absent). */
export function optionalPayload(value: unknown, converter: DataConverter): Payload | null {
  return value === undefined ? null : converter.toPayload(value);
}

/**
 * A failure reported by a worker: `{message, type?, nonRetryable?, stackTrace?, source?, details?, cause?}`
 * (`code` is accepted for `type`; `details` is any JSON value). Becomes the engine's Failure record.
 */
export function failureOf(value: unknown, field: string, converter: DataConverter, depth = 0): Failure {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`'${field}' must be an object {message, type?, nonRetryable?}`);
  const f = value as Record<string, unknown>;
  if (typeof f.message !== 'string') throw invalid(`'${field}.message' must be a string`);
  const type = f.type ?? f.code;
  if (type !== undefined && typeof type !== 'string') throw invalid(`'${field}.type' must be a string`);
  if (f.nonRetryable !== undefined && typeof f.nonRetryable !== 'boolean') throw invalid(`'${field}.nonRetryable' must be a boolean`);
  for (const name of ['stackTrace', 'source'] as const) if (f[name] !== undefined && typeof f[name] !== 'string') throw invalid(`'${field}.${name}' must be a string`);
  // A bounded chain: a cycle cannot come out of JSON, but a very deep one should not recurse forever.
  const cause = f.cause === undefined || f.cause === null || depth >= 20 ? null : failureOf(f.cause, `${field}.cause`, converter, depth + 1);
  return {
    message: f.message,
    source: (f.source as string | undefined) ?? 'HttpWorker',
    stackTrace: (f.stackTrace as string | undefined) ?? '',
    code: (type as string | undefined) ?? 'Error',
    nonRetryable: f.nonRetryable === true,
    details: optionalPayload(f.details, converter),
    cause,
  };
}

/** How long a long poll may wait: `waitMs` (default 20 s), capped at 60 s like Temporal's polls. */
export function waitMsOf(value: unknown): number {
  if (value === undefined) return 20_000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalid(`'waitMs' must be a non-negative number of milliseconds`);
  return Math.min(value, 60_000);
}

/** The activity poll's `decodePayloads` option: absent is false. */
export function decodePayloadsOf(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalid(`'decodePayloads' must be true or false`);
  return value;
}

export function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_ARGUMENT', message);
}
