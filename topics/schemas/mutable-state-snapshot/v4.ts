/**
 * MutableStateSnapshot v4 — what workflow retry policies, cron workflows and the workflow-task
 * rate limit need. Top-level fields appended with defaults, so v1–v3 snapshots decode with the v4
 * reader:
 *
 * - `startInput` (default `[]`) / `startHeader` (default `{}`): the input and header the run
 *   started with, which a retry or the next cron run starts with again.
 * - `lastCompletionResult` (default null): the result of the last completed run of a cron chain,
 *   handed to the next run (`workflowInfo().lastResult`).
 * - `lastFailure` (default null): the failure of the run this one retries (or the last failed cron
 *   run), recorded in its `WorkflowExecutionStarted.continuedFailure`.
 * - `workflowTaskWindowStartTime` (default 0) / `workflowTaskWindowCount` (default 0): the current
 *   one-second window of the per-workflow workflow-task rate limit and the tasks sent in it.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { optional, record, withDefault } from '../avro-schema.js';
import { failureSchema, headerSchema, payloadSchema, payloadsSchema, type Failure, type Header } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { mutableStateSnapshotSchemaV3, type MutableStateSnapshot as MutableStateSnapshotV3 } from './v3.js';

export type { BufferedEvent, ExecutionInfo } from './v3.js';

/** The mutable state of one run (as of v4). */
export interface MutableStateSnapshot extends MutableStateSnapshotV3 {
  /** The input the run started with; `[]` in snapshots written before v4. */
  startInput: Payload[];
  /** The header the run started with; `{}` in snapshots written before v4. */
  startHeader: Header;
  /** The result of the cron chain's last completed run, carried to the next; null if none. */
  lastCompletionResult: Payload | null;
  /** The failure of the run this run retries, or of the chain's last failed cron run; null if none. */
  lastFailure: Failure | null;
  /** Start (epoch ms) of the current one-second window of the workflow-task rate limit; 0 before the first task. */
  workflowTaskWindowStartTime: number;
  /** Workflow tasks sent in the current window. */
  workflowTaskWindowCount: number;
}

/** Avro schema of `logbook.MutableStateSnapshot`, version 4. Frozen. */
export const mutableStateSnapshotSchemaV4 = defineSchema(
  record(
    'logbook.MutableStateSnapshot',
    [
      ...mutableStateSnapshotSchemaV3.fields,
      withDefault('startInput', payloadsSchema, []),
      withDefault('startHeader', headerSchema, {}),
      optional('lastCompletionResult', payloadSchema),
      optional('lastFailure', failureSchema),
      withDefault('workflowTaskWindowStartTime', 'long', 0),
      withDefault('workflowTaskWindowCount', 'int', 0),
    ],
    'The mutable state of one workflow run, as the shard processor restores it.',
  ),
);
