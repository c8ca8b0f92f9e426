/**
 * ActivityControl: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { activityControlSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the ActivityControl schema, oldest first. */
export const activityControlSchemas = recordSchemas('ActivityControl', [activityControlSchemaV1]);
