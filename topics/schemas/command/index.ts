/**
 * Command: the latest version's types and schema (v2), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { commandSchemaV1 } from './v1.js';
import { commandSchemaV2 } from './v2.js';

export { commandSchemaV1 } from './v1.js';
export * from './v2.js';
export type * from './v1-client-requests.js';
export type * from './v1-internal-requests.js';
export type * from './v1-task-requests.js';
export type * from './v1-update-protocol.js';
export type * from './v2-reset-request.js';
export { WorkflowCommandType } from './v1-workflow-commands.js';
export type * from './v1-workflow-commands.js';

/** Every version of the Command schema, oldest first. */
export const commandSchemas = recordSchemas('Command', [commandSchemaV1, commandSchemaV2]);
