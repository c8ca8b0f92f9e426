/**
 * The Avro contract of every Logbook topic: schema versions and their TypeScript types.
 * Each record's folder holds `vN.ts` (frozen), `index.ts` (latest) and `fixtures/` (golden bytes).
 * @module
 */
export * from './activity-control/index.js';
export * from './activity-task/index.js';
export * from './audit-record/index.js';
export type * from './avro-schema.js';
export * from './command/index.js';
export * from './common/v1-enums.js';
export type * from './common/v1-records.js';
export * from './history-event/index.js';
export * from './mutable-state-snapshot/index.js';
export * from './namespace/index.js';
export * from './query-task/index.js';
export type { RecordSchemas, SchemaVersion } from './record-schemas.js';
export * from './reply/index.js';
export { schemaCatalog, type RecordName } from './schema-catalog.js';
export * from './shard-positions/index.js';
export * from './visibility-row/index.js';
export * from './workflow-task/index.js';
