/**
 * Golden Namespace v2 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { Namespace } from './v2.js';

/** A namespace that sets the limits v2 added. */
export const namespaceV2Cases: readonly FixtureCase<Namespace>[] = [
  { name: 'newer-limits', value: {
    name: 'carts', description: 'shopping carts', ownerEmail: '', state: 'Registered', retentionMs: 259_200_000,
    historyLimits: {
      historyCountSuggestContinueAsNew: null, historySizeSuggestContinueAsNewBytes: null, historyCountWarn: null, historySizeWarnBytes: null,
      historyCountLimit: 20_000, historySizeLimitBytes: null, maxPendingActivities: null, maxSignalsPerRun: null,
      maxWorkflowTasksPerSecond: 50, maxPayloadBytes: 1_048_576, maxPendingChildWorkflows: 100, maxInFlightUpdatesPerRun: 5, maxUpdatesPerRun: null,
    },
    startsPerSecond: null, apiCallsPerSecond: null, taskQueueActivitiesPerSecond: {}, registerTime: sampleTime, updateTime: sampleTime,
  } },
];
