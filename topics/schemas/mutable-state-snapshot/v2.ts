/**
 * MutableStateSnapshot v2 — what the history state machine (`processors/history/`) needs beyond
 * v1. Only top-level fields are appended, each with a default, so a v1 snapshot decodes with the
 * v2 reader and keeps every record it had:
 *
 * - `startRequestId` (default `""`): the request id of the start that created the run, so a
 *   repeated start is recognised however many signals pushed it out of `requestIds`.
 * - `workflowTaskDispatched` (default `true`): false while the pending workflow task waits for a
 *   retry backoff (or the start delay); it is sent when its `scheduledTime` comes.
 * - `activitiesAwaitingBackoff` (default `[]`): scheduled event ids of the pending activities whose
 *   current attempt waits for its retry backoff; each is sent at its `currentAttemptScheduledTime`.
 * - `closeResult` / `closeFailure` (default `null`): how a closed run ended, so a caller awaiting
 *   the result of an already closed run is answered from the snapshot.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, optional, record, withDefault } from '../avro-schema.js';
import { failureSchema, payloadSchema, type Failure } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { mutableStateSnapshotSchemaV1, type MutableStateSnapshot as MutableStateSnapshotV1 } from './v1.js';

export type { BufferedEvent, ExecutionInfo } from './v1.js';

/** The mutable state of one run (as of v2). */
export interface MutableStateSnapshot extends MutableStateSnapshotV1 {
  /** Request id of the start that created this run; `""` in snapshots written by v1. */
  startRequestId: string;
  /** False while the pending workflow task waits for its backoff; it is sent at its `scheduledTime`. */
  workflowTaskDispatched: boolean;
  /** Scheduled event ids of pending activities whose current attempt waits for its retry backoff. */
  activitiesAwaitingBackoff: number[];
  /** The result of a run that completed; null otherwise. */
  closeResult: Payload | null;
  /** Why a closed run did not complete (failed, canceled, terminated, timed out); null otherwise. */
  closeFailure: Failure | null;
}

/** Avro schema of `logbook.MutableStateSnapshot`, version 2. Frozen. */
export const mutableStateSnapshotSchemaV2 = defineSchema(
  record(
    'logbook.MutableStateSnapshot',
    [
      // v1's fields as v1 wrote them (nested named types already defined once), then the additions.
      ...mutableStateSnapshotSchemaV1.fields,
      withDefault('startRequestId', 'string', ''),
      withDefault('workflowTaskDispatched', 'boolean', true),
      withDefault('activitiesAwaitingBackoff', arrayOf('long'), []),
      optional('closeResult', payloadSchema),
      optional('closeFailure', failureSchema),
    ],
    'The mutable state of one workflow run, as the shard processor restores it.',
  ),
);
