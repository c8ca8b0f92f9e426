/**
 * Reply: the latest version's types and schema (v2), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { replySchemaV1 } from './v1.js';
import { replySchemaV2 } from './v2.js';

export { replySchemaV1 } from './v1.js';
export * from './v2.js';

/** Every version of the Reply schema, oldest first. */
export const replySchemas = recordSchemas('Reply', [replySchemaV1, replySchemaV2]);
