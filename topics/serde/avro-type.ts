import avro from 'avsc';
import type { Type } from 'avsc';

/**
 * Parses a schema with the options every Logbook type uses, so readers and writers agree on
 * the in-memory shape: unions are wrapped only when ambiguous (`wrapUnions: 'auto'`, so
 * `["null", X]` stays `X | null` and unions of records are `{ "logbook.X": … }`), logical types
 * are left as their underlying type (timestamps stay epoch-ms numbers).
 */
export function parseAvroType(schema: unknown): Type {
  return avro.Type.forSchema(schema as Parameters<typeof avro.Type.forSchema>[0], {
    wrapUnions: 'auto',
    assertLogicalTypes: false,
  });
}
