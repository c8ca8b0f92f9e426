/**
 * Copy-on-write helpers for snapshots, which are plain data: objects and arrays are copied, byte
 * buffers (payload data, never mutated once decoded) are shared.
 * @module
 */

/**
 * A deep copy of plain data (objects, arrays, primitives). Byte buffers are shared; any other
 * object is copied as a plain object of its own enumerable fields.
 */
export function cloneData<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => cloneData(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = cloneData(item);
  return copy as T;
}

/** Structural equality of plain data; byte buffers compare by content. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameData((a as Record<string, unknown>)[k], rb[k]));
}
