import type { Payload } from '../../topics/payload/index.js';

/**
 * The inner payload as the bytes an encrypting codec seals: JSON of its metadata (base64 values)
 * and data (base64). Plain JSON keeps the format readable by any language's codec server.
 */
export function encodePayloadRecord(payload: Payload): Buffer {
  const metadata = Object.fromEntries(Object.entries(payload.metadata).map(([k, v]) => [k, v.toString('base64')]));
  return Buffer.from(JSON.stringify({ metadata, data: payload.data.toString('base64') }), 'utf8');
}

/** The inverse of {@link encodePayloadRecord}. */
export function decodePayloadRecord(bytes: Buffer): Payload {
  const record = JSON.parse(bytes.toString('utf8')) as { metadata: Record<string, string>; data: string };
  return {
    metadata: Object.fromEntries(Object.entries(record.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(record.data, 'base64'),
  };
}
