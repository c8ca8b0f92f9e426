/**
 * Where a mapping takes a value from: a constant, the record's key, its whole (decoded) value, a
 * field of the value by a dotted path (`customer.id`, `items.0.sku`), or a header.
 */
export type ValueSource =
  | { readonly const: unknown }
  | { readonly from: 'key' }
  | { readonly from: 'value' }
  | { readonly field: string }
  | { readonly header: string };

/** The parts of a source record a value can come from. */
export interface SourceParts {
  readonly key: string | null;
  readonly value: unknown;
  readonly headers: Readonly<Record<string, Buffer>>;
}

/** Why a value could not be found; the message names the source so the dead letter says what to fix. */
export class MissingValueError extends Error {}

/**
 * The value `source` names in `parts`.
 * @throws MissingValueError when the key, field or header is absent
 */
export function valueAt(source: ValueSource, parts: SourceParts): unknown {
  if ('const' in source) return source.const;
  if ('header' in source) {
    const header = parts.headers[source.header];
    if (header === undefined) throw new MissingValueError(`the record has no header '${source.header}'`);
    return header.toString('utf8');
  }
  if ('field' in source) return fieldAt(parts.value, source.field);
  if (source.from === 'key') {
    if (parts.key === null) throw new MissingValueError('the record has no key');
    return parts.key;
  }
  return parts.value;
}

/** The field of `value` at a dotted path. @throws MissingValueError naming the first missing step */
export function fieldAt(value: unknown, path: string): unknown {
  let current = value;
  const seen: string[] = [];
  for (const step of path.split('.')) {
    seen.push(step);
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, step)) {
      throw new MissingValueError(`the value has no field '${seen.join('.')}'`);
    }
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** A value used as a name or id: non-empty strings as they are, finite numbers and bigints in decimal. */
export function asText(value: unknown, what: string): string {
  if (value === '') throw new MissingValueError(`${what} is empty`);
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return String(value);
  throw new MissingValueError(`${what} must be a string or a number, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
}

/** Why `source` is not a value source, or null; `field` names it in the message. */
export function valueSourceProblem(source: unknown, field: string): string | null {
  if (typeof source === 'string') return null;
  if (source === null || typeof source !== 'object' || Array.isArray(source)) {
    return `${field} must be a string or one of {"from":"key"}, {"from":"value"}, {"field":"a.b"}, {"header":"name"}`;
  }
  const keys = Object.keys(source);
  const entry = source as Record<string, unknown>;
  if (keys.length !== 1) return `${field} must have exactly one of 'from', 'field', 'header' or 'const', got ${keys.length === 0 ? 'none' : keys.map((k) => `'${k}'`).join(', ')}`;
  if ('const' in entry) return null;
  if ('from' in entry) return entry.from === 'key' || entry.from === 'value' ? null : `${field}.from must be 'key' or 'value', got ${JSON.stringify(entry.from)}`;
  if ('field' in entry) {
    const path = entry.field;
    if (typeof path !== 'string' || path === '' || path.split('.').some((s) => s === '')) return `${field}.field must be a dotted path such as 'customer.id', got ${JSON.stringify(path)}`;
    return null;
  }
  if ('header' in entry) return typeof entry.header === 'string' && entry.header !== '' ? null : `${field}.header must be a header name`;
  return `${field} has an unknown key '${keys[0]}': use 'from', 'field', 'header' or 'const'`;
}

/** A source as written in a mapping file: a plain string is a constant. */
export function normalisedSource(source: string | ValueSource): ValueSource {
  return typeof source === 'string' ? { const: source } : source;
}
