/**
 * VisibilityRow v1 — the value of `logbook.visibility` (key `ns/workflowId/runId`): one summary
 * row per run for list / count / describe.
 * @module
 */
import { field, optional, record, timestampMillis } from '../avro-schema.js';
import { workflowExecutionStatusSchema, type WorkflowExecutionStatus } from '../common/v1-enums.js';
import { memoSchema, searchAttributesSchema, type Memo, type SearchAttributes } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';

/** A run's summary row (as of v1). */
export interface VisibilityRow {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: WorkflowExecutionStatus;
  startTime: number;
  closeTime: number | null;
  executionTime: number;
  historyLength: number;
  memo: Memo;
  searchAttributes: SearchAttributes;
}

/** Fields of v1, reused by later versions (a v2 only appends). */
export const visibilityRowFieldsV1 = [
  field('namespace', 'string'),
  field('workflowId', 'string'),
  field('runId', 'string'),
  field('workflowType', 'string'),
  field('taskQueue', 'string'),
  field('status', workflowExecutionStatusSchema),
  field('startTime', timestampMillis),
  optional('closeTime', timestampMillis),
  field('executionTime', timestampMillis),
  field('historyLength', 'long'),
  field('memo', memoSchema),
  field('searchAttributes', searchAttributesSchema),
] as const;

/** Avro schema of `logbook.VisibilityRow`, version 1. Frozen. */
export const visibilityRowSchemaV1 = defineSchema(
  record('logbook.VisibilityRow', visibilityRowFieldsV1, 'Summary of one workflow run.'),
);
