/**
 * Reply: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { replySchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the Reply schema, oldest first. */
export const replySchemas = recordSchemas('Reply', [replySchemaV1]);
