/**
 * The raw view: how records travel as JSON over the gateway's HTTP API (task endpoints, lossless
 * history pages). It is the record itself with every byte string as `{ "$b64": "…" }`, so a worker
 * in any language echoes payloads and commands back byte for byte.
 * @module
 */

/** A record in the raw view: buffers as `{ $b64 }`, everything else as it is. */
export function toRawView(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { $b64: value.toString('base64') };
  if (value instanceof Uint8Array) return { $b64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (Array.isArray(value)) return value.map(toRawView);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toRawView(v)]));
  return value;
}

/** The inverse of {@link toRawView}: every object that is exactly `{ $b64: string }` becomes a Buffer again. */
export function fromRawView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromRawView);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === '$b64' && typeof entries[0]![1] === 'string') return Buffer.from(entries[0]![1], 'base64');
    return Object.fromEntries(entries.map(([k, v]) => [k, fromRawView(v)]));
  }
  return value;
}
