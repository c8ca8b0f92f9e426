/**
 * ActivityTask: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { activityTaskSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the ActivityTask schema, oldest first. */
export const activityTaskSchemas = recordSchemas('ActivityTask', [activityTaskSchemaV1]);
