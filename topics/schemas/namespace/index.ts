/**
 * Namespace: the latest version's types and schema (v3), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { namespaceSchemaV1 } from './v1.js';
import { namespaceSchemaV2 } from './v2.js';
import { namespaceSchemaV3 } from './v3.js';

export { namespaceSchemaV1 } from './v1.js';
export { namespaceSchemaV2 } from './v2.js';
export * from './v3.js';

/** Every version of the Namespace schema, oldest first. */
export const namespaceSchemas = recordSchemas('Namespace', [namespaceSchemaV1, namespaceSchemaV2, namespaceSchemaV3]);
