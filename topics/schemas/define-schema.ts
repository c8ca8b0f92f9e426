import type { AvroField, AvroSchema, AvroRecordSchema } from './avro-schema.js';

/**
 * Finalises a top-level record schema written with shared building blocks.
 *
 * Schema files reuse named types (`logbook.Payload`, `logbook.Failure`, …) by embedding the same
 * definition wherever it is needed, which keeps each file readable on its own. Avro, however,
 * allows a name to be defined once: later uses must be the bare name. This walks the schema in
 * Avro's parse order (fields in order, union branches in order, depth first), keeps the first
 * definition of each name and replaces later ones by the name, and freezes the result. The output
 * is a self-contained schema any Avro library (Java, Python, ksqlDB) accepts.
 *
 * @throws Error when two different definitions share a name — a schema authoring bug
 * @example
 * export const replySchemaV1 = defineSchema(record('logbook.Reply', [...]));
 */
export function defineSchema(schema: AvroRecordSchema): AvroRecordSchema {
  const seen = new Map<string, string>();
  const result = dedupe(schema, seen) as AvroRecordSchema;
  return deepFreeze(result);
}

function dedupe(schema: AvroSchema, seen: Map<string, string>): AvroSchema {
  if (typeof schema === 'string') return schema;
  if (isArray(schema)) return schema.map((branch) => dedupe(branch, seen));
  if ('name' in schema && typeof schema.name === 'string') {
    if (!schema.name.includes('.')) {
      throw new Error(`schema name ${schema.name} must be fully qualified (logbook.…)`);
    }
    const signature = signatureOf(schema);
    const previous = seen.get(schema.name);
    if (previous !== undefined) {
      if (previous !== signature) throw new Error(`two different definitions of ${schema.name}`);
      // Still walk the repeat so a differing definition nested inside it is caught too.
      dedupeChildren(schema, seen);
      return schema.name;
    }
    seen.set(schema.name, signature);
  }
  return dedupeChildren(schema, seen);
}

function dedupeChildren(schema: Exclude<AvroSchema, string | readonly AvroSchema[]>, seen: Map<string, string>): AvroSchema {
  switch (schema.type) {
    case 'record':
      return { ...schema, fields: schema.fields.map((f): AvroField => ({ ...f, type: dedupe(f.type, seen) })) };
    case 'array':
      return { ...schema, items: dedupe(schema.items, seen) };
    case 'map':
      return { ...schema, values: dedupe(schema.values, seen) };
    default:
      return schema;
  }
}

const namedTypes = new Set(['record', 'error', 'enum', 'fixed']);

// A definition with nested named types reduced to their names, so the same type compares equal
// whether an inner type was written out or already referenced by name.
function signatureOf(schema: AvroSchema): string {
  return JSON.stringify(schema, function (this: unknown, key: string, value: unknown) {
    const nested = key !== '' && value !== null && typeof value === 'object' && !Array.isArray(value);
    if (nested && namedTypes.has((value as { type?: string }).type ?? '') && 'name' in value) {
      return (value as { name: string }).name;
    }
    return value;
  });
}

// Array.isArray does not narrow readonly arrays.
function isArray(value: AvroSchema): value is readonly AvroSchema[] {
  return Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
