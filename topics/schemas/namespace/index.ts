/**
 * Namespace: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { namespaceSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the Namespace schema, oldest first. */
export const namespaceSchemas = recordSchemas('Namespace', [namespaceSchemaV1]);
