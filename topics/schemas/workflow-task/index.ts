/**
 * WorkflowTask: the latest version's types and schema (v2), and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { workflowTaskSchemaV1 } from './v1.js';
import { workflowTaskSchemaV2 } from './v2.js';

export { workflowTaskSchemaV1 } from './v1.js';
export * from './v2.js';

/** Every version of the WorkflowTask schema, oldest first. */
export const workflowTaskSchemas = recordSchemas('WorkflowTask', [workflowTaskSchemaV1, workflowTaskSchemaV2]);
