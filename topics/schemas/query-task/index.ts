/**
 * QueryTask: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { queryTaskSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the QueryTask schema, oldest first. */
export const queryTaskSchemas = recordSchemas('QueryTask', [queryTaskSchemaV1]);
