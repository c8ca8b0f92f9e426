import type { AvroRecordSchema } from './avro-schema.js';

/** One frozen version of a record's schema. Versions are never edited or deleted. */
export interface SchemaVersion {
  /** 1, 2, … in order of introduction. */
  readonly version: number;
  /** The self-contained schema (see `defineSchema`). */
  readonly schema: AvroRecordSchema;
}

/**
 * Every version of one record kind (a topic value type). Writers always use the latest version;
 * readers accept every version and resolve it to the latest.
 */
export interface RecordSchemas<R extends string = string> {
  /** Short record name, e.g. `HistoryEvent`. */
  readonly record: R;
  /** Avro full name of the top-level record, e.g. `logbook.HistoryEvent`. Same in every version. */
  readonly fullName: string;
  /** All versions, oldest first; the last one is the latest. Never empty. */
  readonly versions: readonly SchemaVersion[];
}

/**
 * Builds a {@link RecordSchemas}, checking the invariants the serde relies on.
 *
 * @param record short name
 * @param schemas the versions' schemas, oldest first (version numbers are their positions + 1)
 * @throws Error when the list is empty or a version renames the top-level record
 */
export function recordSchemas<R extends string>(record: R, schemas: readonly AvroRecordSchema[]): RecordSchemas<R> {
  const first = schemas[0];
  if (first === undefined) throw new Error(`record ${record} has no schema version`);
  for (const schema of schemas) {
    if (schema.name !== first.name) {
      throw new Error(`record ${record}: version named ${schema.name}, expected ${first.name}`);
    }
  }
  return Object.freeze({
    record,
    fullName: first.name,
    versions: Object.freeze(schemas.map((schema, i) => Object.freeze({ version: i + 1, schema }))),
  });
}
