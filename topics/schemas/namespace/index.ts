/**
 * Namespace: the latest version's types and schema (v2), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { namespaceSchemaV1 } from './v1.js';
import { namespaceSchemaV2 } from './v2.js';

export { namespaceSchemaV1 } from './v1.js';
export * from './v2.js';

/** Every version of the Namespace schema, oldest first. */
export const namespaceSchemas = recordSchemas('Namespace', [namespaceSchemaV1, namespaceSchemaV2]);
