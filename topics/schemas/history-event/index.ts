/**
 * HistoryEvent: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { historyEventSchemaV1 } from './v1.js';

export * from './v1.js';
export type * from './v1-activity-task-events.js';
export type * from './v1-child-events.js';
export type * from './v1-execution-events.js';
export type * from './v1-external-events.js';
export type * from './v1-message-events.js';
export type * from './v1-timer-events.js';
export type * from './v1-workflow-task-events.js';

/** Every version of the HistoryEvent schema, oldest first. */
export const historyEventSchemas = recordSchemas('HistoryEvent', [historyEventSchemaV1]);
