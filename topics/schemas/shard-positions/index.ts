/**
 * ShardPositions: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { shardPositionsSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the ShardPositions schema, oldest first. */
export const shardPositionsSchemas = recordSchemas('ShardPositions', [shardPositionsSchemaV1]);
