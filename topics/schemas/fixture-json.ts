/**
 * The JSON form of golden fixtures (`<record>/fixtures/vN-<case>.json`): the record's TypeScript
 * value as JSON, with every `Buffer` written as an object with one key —
 * `{ "$utf8": "…" }` when the bytes are text that round-trips through UTF-8 (most payloads, so
 * diffs stay readable), otherwise `{ "$base64": "…" }`. Numbers are plain JSON numbers (all
 * longs in fixtures are safe integers). Key order follows the value as built.
 * @module
 */

/** Converts a value to fixture JSON text (2-space indent, trailing newline). */
export function toFixtureJson(value: unknown): string {
  return `${JSON.stringify(encodeBuffers(value), null, 2)}\n`;
}

/** Parses fixture JSON text back into the value, restoring Buffers. */
export function fromFixtureJson(text: string): unknown {
  return decodeBuffers(JSON.parse(text) as unknown);
}

function encodeBuffers(value: unknown): unknown {
  if (Buffer.isBuffer(value)) {
    const text = value.toString('utf8');
    const isText = Buffer.from(text, 'utf8').equals(value) && !/[\u0000-\u0008\u000e-\u001f\ufffd]/u.test(text);
    return isText ? { $utf8: text } : { $base64: value.toString('base64') };
  }
  if (Array.isArray(value)) return value.map(encodeBuffers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeBuffers(v)]));
  }
  return value;
}

function decodeBuffers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBuffers);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [key, inner] = entries[0] as [string, unknown];
      if (key === '$utf8' && typeof inner === 'string') return Buffer.from(inner, 'utf8');
      if (key === '$base64' && typeof inner === 'string') return Buffer.from(inner, 'base64');
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, decodeBuffers(v)]));
  }
  return value;
}
