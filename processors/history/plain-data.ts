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
  // Indexed and for-in loops, not map and Object.entries: a state is copied per input, and the
  // entry arrays doubled the cost of the copy.
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = cloneData(value[i]);
    return items as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = cloneData((value as Record<string, unknown>)[key]);
    // A user's map key (memo, search attributes) may be `__proto__`: an own field, not the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}

/** Structural equality of plain data; byte buffers compare by content. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let unmatched = 0;
  for (const key in ra) {
    if (!Object.hasOwn(ra, key)) continue;
    if (!Object.hasOwn(rb, key) || !sameData(ra[key], rb[key])) return false;
    unmatched++;
  }
  for (const key in rb) if (Object.hasOwn(rb, key)) unmatched--;
  return unmatched === 0;
}
