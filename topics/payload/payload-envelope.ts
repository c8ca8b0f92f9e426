import type { EncodingPayloadConverter } from './data-converter.js';
import type { Payload } from './payload.js';
import { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';

/**
 * A payload as JSON, in the shape Temporal's codec servers use: metadata values and data base64.
 * Travels inside `{ "$payload": … }` wherever the HTTP API takes or shows a value, so a value an
 * SDK encoded itself (an encrypted one) crosses the gateway byte for byte.
 */
export interface JsonPayload {
  metadata: Record<string, string>;
  data: string;
}

/** The one key of a payload envelope `{ "$payload": {metadata, data} }`. */
export const ENVELOPE_KEY = '$payload';

/** A payload as {@link JsonPayload}. */
export function toJsonPayload(payload: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata).map(([k, v]) => [k, v.toString('base64')])),
    data: payload.data.toString('base64'),
  };
}

/**
 * A {@link JsonPayload} as a payload.
 * @throws TypeError naming `field` and what is wrong when `value` is not one
 */
export function fromJsonPayload(value: unknown, field = 'payload'): Payload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${field} must be an object {metadata, data}`);
  const { metadata, data } = value as { metadata?: unknown; data?: unknown };
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) throw new TypeError(`${field}.metadata must be an object of base64 strings`);
  const entries = Object.entries(metadata);
  const bad = entries.find(([, v]) => typeof v !== 'string');
  if (bad) throw new TypeError(`${field}.metadata.${bad[0]} must be a base64 string`);
  if (typeof data !== 'string') throw new TypeError(`${field}.data must be a base64 string`);
  return { metadata: Object.fromEntries(entries.map(([k, v]) => [k, Buffer.from(v as string, 'base64')])), data: Buffer.from(data, 'base64') };
}

/** `{ "$payload": … }` around a payload. */
export function toPayloadEnvelope(payload: Payload): { [ENVELOPE_KEY]: JsonPayload } {
  return { [ENVELOPE_KEY]: toJsonPayload(payload) };
}

/** True for an object whose only key is `$payload`. */
export function isPayloadEnvelope(value: unknown): value is { [ENVELOPE_KEY]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && ENVELOPE_KEY in value;
}

/**
 * Takes a payload envelope as the payload it holds, as is: what lets the gateway's HTTP API accept
 * arguments, memo and details an SDK has already encoded (encrypted) in place of JSON values.
 * Placed first in the gateway's converter; it never decodes, since the payload keeps its own
 * encoding.
 */
export class PayloadEnvelopeConverter implements EncodingPayloadConverter {
  /** Never written into a payload; only keeps the composite's encodings distinct. */
  readonly encoding = 'logbook/payload-envelope';

  /** @throws PayloadEncodingError (`PAYLOAD_INVALID_DATA`) when the envelope does not hold a {@link JsonPayload} */
  toPayload(value: unknown): Payload | undefined {
    if (!isPayloadEnvelope(value)) return undefined;
    try {
      return fromJsonPayload(value[ENVELOPE_KEY], ENVELOPE_KEY);
    } catch (error) {
      throw new PayloadEncodingError(PayloadEncodingErrorCode.InvalidData, (error as Error).message, { cause: error });
    }
  }

  /** Unreachable: no payload carries this encoding. */
  fromPayload<T>(payload: Payload): T {
    return payload as T;
  }
}
