/**
 * Copies a value into the realm this module was evaluated in.
 *
 * The host and each run's sandbox are different realms (their own `Object`, `Array`,
 * `Uint8Array`…): a host array is not `instanceof Array` inside the sandbox, and a sandbox
 * `Uint8Array` is not `instanceof Uint8Array` for the host's binary payload converter. Both sides
 * evaluate this same module, so calling their own copy rebuilds a value from their own intrinsics.
 * Data only: functions and class prototypes do not survive (payload values are data anyway).
 * @module
 */

const tagOf = (value: object): string => Object.prototype.toString.call(value);

/**
 * Deep-copies plain data (objects, arrays, typed arrays as `Uint8Array`, `Date`, `Map`, `Set`),
 * keeping shared and cyclic references. Errors and functions are passed by reference.
 */
export function copyIntoRealm<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen));
    return out;
  }
  if (ArrayBuffer.isView(value)) {
    const out = new Uint8Array(value.byteLength);
    out.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    seen.set(value, out);
    return out;
  }
  const tag = tagOf(value);
  if (tag === '[object Date]') return new Date((value as Date).getTime());
  if (tag === '[object Error]') return value;
  if (tag === '[object Map]') {
    const out = new Map<unknown, unknown>();
    seen.set(value, out);
    for (const [k, v] of value as Map<unknown, unknown>) out.set(copy(k, seen), copy(v, seen));
    return out;
  }
  if (tag === '[object Set]') {
    const out = new Set<unknown>();
    seen.set(value, out);
    for (const v of value as Set<unknown>) out.add(copy(v, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen);
  return out;
}
