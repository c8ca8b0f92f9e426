/**
 * WorkflowTask v2 — adds what Temporal puts in the task's WorkflowTaskStarted event, because a
 * worker here synthesises that event from the task: `historySizeBytes` (default 0), the size of the
 * history before WorkflowTaskStarted, and `suggestContinueAsNew` (default false), set once the
 * history passes the suggestion limits. The engine records the same values in WorkflowTaskStarted
 * when the task completes, so replay sees what the live task saw. A v1 task read with this schema
 * gets the defaults.
 * @module
 */
import { record, withDefault } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { workflowTaskSchemaV1, type WorkflowTask as WorkflowTaskV1 } from './v1.js';

export type { UpdateRequestMessage, WorkflowQuery } from './v1.js';

/** A workflow task (as of v2). */
export interface WorkflowTask extends WorkflowTaskV1 {
  /** Estimated size of the run's history before the task's WorkflowTaskStarted; 0 in v1 tasks. */
  historySizeBytes: number;
  /** True when the history is long or large enough that the workflow should continue as new. */
  suggestContinueAsNew: boolean;
}

/** Avro schema of `logbook.WorkflowTask`, version 2. Frozen. */
export const workflowTaskSchemaV2 = defineSchema(
  record('logbook.WorkflowTask', [
    // v1's fields as v1 wrote them (nested named types already defined once), then the additions.
    ...workflowTaskSchemaV1.fields,
    withDefault('historySizeBytes', 'long', 0),
    withDefault('suggestContinueAsNew', 'boolean', false),
  ]),
);
