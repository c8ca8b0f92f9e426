/**
 * WorkflowTask: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { workflowTaskSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the WorkflowTask schema, oldest first. */
export const workflowTaskSchemas = recordSchemas('WorkflowTask', [workflowTaskSchemaV1]);
