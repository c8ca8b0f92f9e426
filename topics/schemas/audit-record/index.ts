/**
 * AuditRecord: the latest version's types and schema, and every version for readers.
 * @module
 */
import { recordSchemas } from '../record-schemas.js';
import { auditRecordSchemaV1 } from './v1.js';

export * from './v1.js';

/** Every version of the AuditRecord schema, oldest first. */
export const auditRecordSchemas = recordSchemas('AuditRecord', [auditRecordSchemaV1]);
