/**
 * Golden Namespace v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { Namespace, NamespaceHistoryLimits } from './v1.js';

const noLimits: NamespaceHistoryLimits = {
  historyCountSuggestContinueAsNew: null,
  historySizeSuggestContinueAsNewBytes: null,
  historyCountWarn: null,
  historySizeWarnBytes: null,
  historyCountLimit: null,
  historySizeLimitBytes: null,
  maxPendingActivities: null,
  maxSignalsPerRun: null,
};

/** A namespace with defaults only, and one with every setting. */
export const namespaceCases: readonly FixtureCase<Namespace>[] = [
  { name: 'defaults', value: {
    name: 'orders', description: '', ownerEmail: '', state: 'Registered', retentionMs: 259_200_000, historyLimits: noLimits,
    startsPerSecond: null, apiCallsPerSecond: null, taskQueueActivitiesPerSecond: {}, registerTime: sampleTime, updateTime: sampleTime,
  } },
  { name: 'limited', value: {
    name: 'billing', description: 'invoices and refunds', ownerEmail: 'billing-team@example.com', state: 'Deprecated', retentionMs: 86_400_000,
    historyLimits: { ...noLimits, historyCountLimit: 5_000, maxSignalsPerRun: 100 },
    startsPerSecond: 50, apiCallsPerSecond: 200.5, taskQueueActivitiesPerSecond: { payments: 10, emails: 0.5 },
    registerTime: sampleTime, updateTime: sampleTime + 60_000,
  } },
];
