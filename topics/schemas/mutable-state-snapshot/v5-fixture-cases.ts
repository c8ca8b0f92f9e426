/**
 * Golden MutableStateSnapshot v5 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleTime, type FixtureCase } from '../fixture-samples.js';
import { mutableStateSnapshotCases } from './v1-fixture-cases.js';
import { mutableStateSnapshotV4Cases } from './v4-fixture-cases.js';
import type { MutableStateSnapshot } from './v5.js';

const retried = mutableStateSnapshotV4Cases.find((c) => c.name === 'retried-cron-run')!.value;
const activity = mutableStateSnapshotCases.find((c) => c.name === 'busy')!.value.pendingActivities[0]!;

/** A run whose unclaimed activity was asked to cancel: the engine waits for a worker that may run it. */
export const mutableStateSnapshotV5Cases: readonly FixtureCase<MutableStateSnapshot>[] = [
  { name: 'unclaimed-activity-cancel', value: {
    ...retried,
    pendingActivities: [{ ...activity, startedTime: null, startedIdentity: null, startedRequestId: null, lastHeartbeatTime: null, cancelRequested: true, cancelRequestedEventId: 12 }],
    activityCancelDeadlines: [{ scheduledEventId: 5, deadline: sampleTime + 602_000 }],
  } },
];
