/**
 * Golden MutableStateSnapshot v4 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import { sampleOtherRunId, sampleRunId, sampleTime, type FixtureCase } from '../fixture-samples.js';
import { mutableStateSnapshotV3Cases } from './v3-fixture-cases.js';
import type { MutableStateSnapshot } from './v4.js';

const warned = mutableStateSnapshotV3Cases.find((c) => c.name === 'warned-continued-run')!.value;

/** The second attempt of a retried cron run: its start input and header, the carried result and failure, a busy task window. */
export const mutableStateSnapshotV4Cases: readonly FixtureCase<MutableStateSnapshot>[] = [
  { name: 'retried-cron-run', value: {
    ...warned,
    executionInfo: { ...warned.executionInfo, runId: sampleOtherRunId, firstExecutionRunId: sampleRunId, attempt: 2,
      retryPolicy: { initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: 10_000, maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidOrder'] },
      cronSchedule: '*/5 * * * *' },
    startInput: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"orderId":"o-1"}') }],
    startHeader: { traceparent: { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"00-abc-01"') } },
    lastCompletionResult: { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"processed":41}') },
    lastFailure: { message: 'payment service unavailable', source: 'TypeScriptSDK', stackTrace: '', code: 'Unavailable', nonRetryable: false, details: null, cause: null },
    workflowTaskWindowStartTime: sampleTime + 599_500,
    workflowTaskWindowCount: 17,
  } },
];
