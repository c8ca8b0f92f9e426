/**
 * Golden Namespace v3 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { Namespace } from './v3.js';

/** A namespace that guards its payloads and search attributes. */
export const namespaceV3Cases: readonly FixtureCase<Namespace>[] = [
  { name: 'payload-guards', value: {
    name: 'patients', description: 'health records', ownerEmail: '', state: 'Registered', retentionMs: 259_200_000,
    historyLimits: {
      historyCountSuggestContinueAsNew: null, historySizeSuggestContinueAsNewBytes: null, historyCountWarn: null, historySizeWarnBytes: null,
      historyCountLimit: null, historySizeLimitBytes: null, maxPendingActivities: null, maxSignalsPerRun: null,
      maxWorkflowTasksPerSecond: null, maxPayloadBytes: null, maxPendingChildWorkflows: null, maxInFlightUpdatesPerRun: null, maxUpdatesPerRun: null,
    },
    startsPerSecond: null, apiCallsPerSecond: null, taskQueueActivitiesPerSecond: {}, registerTime: sampleTime, updateTime: sampleTime,
    codecRequiredTaskQueues: ['admissions', 'team/records'], refusedSearchAttributes: ['PatientName', 'Email'],
  } },
];
