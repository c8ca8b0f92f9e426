/**
 * MutableStateSnapshot: the latest version's types and schema (v5), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { mutableStateSnapshotSchemaV1 } from './v1.js';
import { mutableStateSnapshotSchemaV2 } from './v2.js';
import { mutableStateSnapshotSchemaV3 } from './v3.js';
import { mutableStateSnapshotSchemaV4 } from './v4.js';
import { mutableStateSnapshotSchemaV5 } from './v5.js';

export { mutableStateSnapshotSchemaV1 } from './v1.js';
export { mutableStateSnapshotSchemaV2 } from './v2.js';
export { mutableStateSnapshotSchemaV3 } from './v3.js';
export { mutableStateSnapshotSchemaV4 } from './v4.js';
export * from './v5.js';
export type * from './v1-pending-info.js';

/** Every version of the MutableStateSnapshot schema, oldest first. */
export const mutableStateSnapshotSchemas = recordSchemas('MutableStateSnapshot', [
  mutableStateSnapshotSchemaV1,
  mutableStateSnapshotSchemaV2,
  mutableStateSnapshotSchemaV3,
  mutableStateSnapshotSchemaV4,
  mutableStateSnapshotSchemaV5,
]);
