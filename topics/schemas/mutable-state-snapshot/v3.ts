/**
 * MutableStateSnapshot v3 — what the history limits need. Top-level fields appended with defaults,
 * so v1 and v2 snapshots decode with the v3 reader:
 *
 * - `signalCount` (default 0): signals this run accepted, for the per-run signal limit.
 * - `historyLimitWarned` (default false): the history-size warning marker was written (once per run).
 * @module
 */
import { record, withDefault } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { mutableStateSnapshotSchemaV2, type MutableStateSnapshot as MutableStateSnapshotV2 } from './v2.js';

export type { BufferedEvent, ExecutionInfo } from './v2.js';

/** The mutable state of one run (as of v3). */
export interface MutableStateSnapshot extends MutableStateSnapshotV2 {
  /** Signals this run accepted (appended or buffered); 0 in snapshots written before v3. */
  signalCount: number;
  /** True once the history-size warning marker was written for this run. */
  historyLimitWarned: boolean;
}

/** Avro schema of `logbook.MutableStateSnapshot`, version 3. Frozen. */
export const mutableStateSnapshotSchemaV3 = defineSchema(
  record(
    'logbook.MutableStateSnapshot',
    [
      ...mutableStateSnapshotSchemaV2.fields,
      withDefault('signalCount', 'long', 0),
      withDefault('historyLimitWarned', 'boolean', false),
    ],
    'The mutable state of one workflow run, as the shard processor restores it.',
  ),
);
