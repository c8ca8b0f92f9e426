/**
 * Golden ActivityControl v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleRunId, type FixtureCase } from '../fixture-samples.js';
import type { ActivityControl } from './v1.js';

/** A cancellation. */
export const activityControlCases: readonly FixtureCase<ActivityControl>[] = [
  { name: 'cancel', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, scheduledEventId: 5, activityId: '1',
    reason: 'workflow requested cancellation',
  } },
];
