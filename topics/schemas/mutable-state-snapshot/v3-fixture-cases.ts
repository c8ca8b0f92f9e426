/**
 * Golden MutableStateSnapshot v3 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleOtherRunId, sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import { mutableStateSnapshotV2Cases } from './v2-fixture-cases.js';
import type { MutableStateSnapshot } from './v3.js';

const completed = mutableStateSnapshotV2Cases.find((c) => c.name === 'completed')!.value;

/** A long-running run of a continue-as-new chain that accepted signals and was warned about its history. */
export const mutableStateSnapshotV3Cases: readonly FixtureCase<MutableStateSnapshot>[] = [
  { name: 'warned-continued-run', value: {
    ...completed,
    executionInfo: { ...completed.executionInfo, runId: sampleOtherRunId, firstExecutionRunId: sampleRunId, status: 'Running',
      closeTime: null, lastEventId: 30_004, nextEventId: 30_005, lastEventTime: sampleTime + 600_000,
      lastWorkflowTaskCompletedEventId: 30_001, historySizeBytes: 4_200_000 },
    closeResult: null,
    signalCount: 9_000,
    historyLimitWarned: true,
  } },
];
