/**
 * Avro "Parsing Canonical Form" (specification, "Parsing Canonical Form for Schemas"): the schema
 * JSON reduced to what matters for reading bytes, so equal schemas get equal fingerprints.
 * Rules applied: PRIMITIVES (`{"type":"int"}` → `"int"`), FULLNAMES (names qualified with the
 * enclosing namespace, `namespace` dropped), STRIP (only type, name, fields, symbols, items,
 * values, size kept — doc, aliases, default, order, logicalType go), ORDER (name, type, fields,
 * symbols, items, values, size), STRINGS and WHITESPACE (`JSON.stringify` output), and a named
 * type written out once, then referenced by full name.
 * @module
 */

const primitives = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/**
 * The Parsing Canonical Form of a schema given as parsed JSON (or a JSON string).
 *
 * @throws Error on a schema shape it cannot interpret (e.g. a named type without a name)
 */
export function parsingCanonicalForm(schema: unknown): string {
  const parsed = typeof schema === 'string' && isJsonText(schema) ? (JSON.parse(schema) as unknown) : schema;
  return canonical(parsed, '', new Set());
}

// A bare type name like `int` is not JSON text; `"int"` and `{…}` are.
function isJsonText(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '"' || first === '{' || first === '[';
}

function canonical(schema: unknown, namespace: string, seen: Set<string>): string {
  if (typeof schema === 'string') {
    return JSON.stringify(primitives.has(schema) ? schema : qualify(schema, namespace));
  }
  if (Array.isArray(schema)) {
    return `[${schema.map((branch) => canonical(branch, namespace, seen)).join(',')}]`;
  }
  if (schema === null || typeof schema !== 'object') {
    throw new Error(`not an Avro schema: ${JSON.stringify(schema)}`);
  }
  const obj = schema as Record<string, unknown>;
  const type = obj['type'];
  if (typeof type !== 'string') return canonical(type, namespace, seen); // {"type": {...}} or {"type": [...]}
  switch (type) {
    case 'record':
    case 'error':
    case 'enum':
    case 'fixed':
      return canonicalNamed(obj, type, namespace, seen);
    case 'array':
      return `{"type":"array","items":${canonical(obj['items'], namespace, seen)}}`;
    case 'map':
      return `{"type":"map","values":${canonical(obj['values'], namespace, seen)}}`;
    default:
      // A primitive in object form (logical types dropped) or a reference written as {"type":"x.Y"}.
      return canonical(type, namespace, seen);
  }
}

function canonicalNamed(
  obj: Record<string, unknown>,
  type: string,
  enclosing: string,
  seen: Set<string>,
): string {
  const name = obj['name'];
  if (typeof name !== 'string') throw new Error(`${type} without a name`);
  const ownNamespace = typeof obj['namespace'] === 'string' ? obj['namespace'] : enclosing;
  const fullName = qualify(name, ownNamespace);
  if (seen.has(fullName)) return JSON.stringify(fullName);
  seen.add(fullName);
  const head = `{"name":${JSON.stringify(fullName)},"type":${JSON.stringify(type)}`;
  if (type === 'enum') return `${head},"symbols":${JSON.stringify(obj['symbols'])}}`;
  if (type === 'fixed') return `${head},"size":${Number(obj['size'])}}`;
  // Names inside a record resolve against the record's own namespace.
  const inner = namespaceOf(fullName);
  const fields = (obj['fields'] as readonly Record<string, unknown>[]).map(
    (f) => `{"name":${JSON.stringify(f['name'])},"type":${canonical(f['type'], inner, seen)}}`,
  );
  return `${head},"fields":[${fields.join(',')}]}`;
}

function qualify(name: string, namespace: string): string {
  return name.includes('.') || namespace === '' ? name : `${namespace}.${name}`;
}

function namespaceOf(fullName: string): string {
  const dot = fullName.lastIndexOf('.');
  return dot < 0 ? '' : fullName.slice(0, dot);
}
