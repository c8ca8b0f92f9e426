/**
 * MutableStateSnapshot: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { mutableStateSnapshotSchemaV1 } from './v1.js';

export * from './v1.js';
export type * from './v1-pending-info.js';

/** Every version of the MutableStateSnapshot schema, oldest first. */
export const mutableStateSnapshotSchemas = recordSchemas('MutableStateSnapshot', [mutableStateSnapshotSchemaV1]);
