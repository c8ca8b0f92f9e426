import type { Payload } from './payload.js';

/**
 * Record fields whose payloads are never handed to a codec: search attributes are indexed by the
 * engine and stay plain text by design (README "Security": do not put personal data there).
 */
const PLAIN_FIELDS: ReadonlySet<string> = new Set(['searchAttributes']);

/** True for a payload record: exactly `metadata` (a record of Buffers) and `data` (a Buffer). */
export function isPayload(value: unknown): value is Payload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Partial<Payload>;
  if (!Buffer.isBuffer(v.data) || v.metadata === null || typeof v.metadata !== 'object') return false;
  return Object.keys(value).length === 2 && Object.values(v.metadata).every((m) => Buffer.isBuffer(m));
}

/**
 * A copy of `value` (a record, an array, a task, a list of events) with every payload inside it
 * replaced by `transform(payload)`, in order; everything else is kept as it is. Payloads under a
 * `searchAttributes` field are left alone. This is how codecs reach the payloads of whole records
 * without one function per record type.
 *
 * @example
 * const decoded = await mapPayloads(task, (p) => codec.decode([p]).then(([d]) => d!));
 */
export async function mapPayloads<T>(value: T, transform: (payload: Payload) => Promise<Payload>): Promise<T> {
  return (await mapValue(value, transform)) as T;
}

async function mapValue(value: unknown, transform: (payload: Payload) => Promise<Payload>): Promise<unknown> {
  if (isPayload(value)) return transform(value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    const mapped: unknown[] = [];
    for (const item of value) mapped.push(await mapValue(item, transform));
    return mapped;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) entries.push([key, PLAIN_FIELDS.has(key) ? item : await mapValue(item, transform)]);
  return Object.fromEntries(entries);
}

/** Every payload inside `value`, in the order {@link mapPayloads} visits them. */
export function payloadsIn(value: unknown): Payload[] {
  const found: Payload[] = [];
  const visit = (v: unknown): void => {
    if (isPayload(v)) found.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Uint8Array)) {
      for (const [key, item] of Object.entries(v)) if (!PLAIN_FIELDS.has(key)) visit(item);
    }
  };
  visit(value);
  return found;
}
