/**
 * VisibilityRow v2 — adds `historySizeBytes` (default 0), so v1 rows still decode: a v1 row read
 * with this schema gets `historySizeBytes: 0`.
 * @module
 */
import { record, withDefault } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { visibilityRowFieldsV1, type VisibilityRow as VisibilityRowV1 } from './v1.js';

/** A run's summary row (as of v2). */
export interface VisibilityRow extends VisibilityRowV1 {
  /** Size of the run's history in bytes; 0 in rows written by v1. */
  historySizeBytes: number;
}

/** Avro schema of `logbook.VisibilityRow`, version 2. Frozen. */
export const visibilityRowSchemaV2 = defineSchema(
  record(
    'logbook.VisibilityRow',
    [...visibilityRowFieldsV1, withDefault('historySizeBytes', 'long', 0)],
    'Summary of one workflow run.',
  ),
);
