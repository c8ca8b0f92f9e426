import type { DataConverter, Payload } from '../topics/payload/index.js';

/**
 * JSON views of engine records for the HTTP API: payloads are decoded with the data converter when
 * possible (so a person reads `{"orderId": 7}`, not bytes), other bytes become base64.
 */
export function toJsonView(value: unknown, converter: DataConverter): unknown {
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map((v) => toJsonView(v, converter));
  if (value !== null && typeof value === 'object') {
    if (isPayload(value)) return decodePayload(value, converter);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonView(v, converter)]));
  }
  return value;
}

function isPayload(value: object): value is Payload {
  const v = value as Partial<Payload>;
  return Buffer.isBuffer(v.data) && v.metadata !== null && typeof v.metadata === 'object' && Object.keys(value).length === 2;
}

function decodePayload(payload: Payload, converter: DataConverter): unknown {
  try {
    return converter.fromPayload(payload);
  } catch {
    // Encrypted or binary payloads stay opaque.
    return { encoding: payload.metadata.encoding?.toString() ?? null, base64: payload.data.toString('base64') };
  }
}
