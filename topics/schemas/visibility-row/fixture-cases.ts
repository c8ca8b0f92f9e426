/**
 * Golden VisibilityRow cases for v1 and v2. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleMemo, sampleRunId, sampleSearchAttributes, sampleTime, type FixtureCase } from '../fixture-samples.js';
import type { VisibilityRow as VisibilityRowV1 } from './v1.js';
import type { VisibilityRow } from './v2.js';

const running: VisibilityRowV1 = {
  namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', taskQueue: 'orders',
  status: 'Running', startTime: sampleTime, closeTime: null, executionTime: sampleTime, historyLength: 7,
  memo: sampleMemo, searchAttributes: sampleSearchAttributes,
};

/** Rows written by v1 (kept forever: they prove old rows still decode). */
export const visibilityRowV1Cases: readonly FixtureCase<VisibilityRowV1>[] = [
  { name: 'running', value: running },
  { name: 'completed', value: { ...running, status: 'Completed', closeTime: sampleTime + 20_000, historyLength: 20,
    memo: {}, searchAttributes: {} } },
];

/** Rows written by v2. */
export const visibilityRowV2Cases: readonly FixtureCase<VisibilityRow>[] = [
  { name: 'timed-out', value: { ...running, status: 'TimedOut', closeTime: sampleTime + 3_600_000, historyLength: 12,
    historySizeBytes: 8192 } },
];
