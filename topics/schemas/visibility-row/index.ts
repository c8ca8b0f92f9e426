/**
 * VisibilityRow: the latest version's types and schema (v2), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { visibilityRowSchemaV1 } from './v1.js';
import { visibilityRowSchemaV2 } from './v2.js';

export { visibilityRowSchemaV1 } from './v1.js';
export * from './v2.js';

/** Every version of the VisibilityRow schema, oldest first. */
export const visibilityRowSchemas = recordSchemas('VisibilityRow', [visibilityRowSchemaV1, visibilityRowSchemaV2]);
