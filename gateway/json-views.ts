import { isPayload, toPayloadEnvelope, type DataConverter, type Payload } from '../topics/payload/index.js';

/**
 * JSON views of engine records for the HTTP API: payloads are decoded with the data converter when
 * possible (so a person reads `{"orderId": 7}`, not bytes), other bytes become base64. A payload
 * the converter cannot read (an encrypted one) is shown whole as `{ "$payload": {metadata, data} }`
 * (base64), so a codec endpoint can decode it and the gateway never needs the key.
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

function decodePayload(payload: Payload, converter: DataConverter): unknown {
  try {
    return converter.fromPayload(payload);
  } catch {
    return toPayloadEnvelope(payload);
  }
}
