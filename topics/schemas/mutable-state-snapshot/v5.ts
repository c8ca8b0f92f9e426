/**
 * MutableStateSnapshot v5 — what the cancellation of an unclaimed activity needs. A top-level
 * field appended with a default, so v1–v4 snapshots decode with the v5 reader:
 *
 * - `activityCancelDeadlines` (default `[]`): the pending activities whose cancellation was
 *   requested while their dispatched attempt was unclaimed, each with the time the engine stops
 *   waiting for a worker that may be running the attempt to claim or answer it, and cancels the
 *   activity itself.
 * @module
 */
import { arrayOf, field, record, withDefault } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { mutableStateSnapshotSchemaV4, type MutableStateSnapshot as MutableStateSnapshotV4 } from './v4.js';

export type { BufferedEvent, ExecutionInfo } from './v4.js';

/** An unclaimed activity asked to cancel, and when the engine cancels it if no worker speaks up. */
export interface ActivityCancelDeadline {
  /** The activity's scheduled event id. */
  scheduledEventId: number;
  /** Epoch ms. */
  deadline: number;
}

/** Avro schema of {@link ActivityCancelDeadline}. */
export const activityCancelDeadlineSchema = record('logbook.ActivityCancelDeadline', [
  field('scheduledEventId', 'long'),
  field('deadline', 'long'),
]);

/** The mutable state of one run (as of v5). */
export interface MutableStateSnapshot extends MutableStateSnapshotV4 {
  /** Unclaimed activities asked to cancel, waiting for a worker that may run them; `[]` before v5. */
  activityCancelDeadlines: ActivityCancelDeadline[];
}

/** Avro schema of `logbook.MutableStateSnapshot`, version 5. Frozen. */
export const mutableStateSnapshotSchemaV5 = defineSchema(
  record(
    'logbook.MutableStateSnapshot',
    [...mutableStateSnapshotSchemaV4.fields, withDefault('activityCancelDeadlines', arrayOf(activityCancelDeadlineSchema), [])],
    'The mutable state of one workflow run, as the shard processor restores it.',
  ),
);
