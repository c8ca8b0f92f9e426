/**
 * Golden ActivityTask v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import {
  jsonPayload,
  sampleHeader,
  sampleRetryPolicy,
  sampleRunId,
  sampleTime,
  type FixtureCase,
} from '../fixture-samples.js';
import type { ActivityTask } from './v1.js';

/** A first attempt, and a retry resuming from heartbeat details. */
export const activityTaskCases: readonly FixtureCase<ActivityTask>[] = [
  { name: 'first-attempt', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', activityId: '1',
    activityType: 'chargeCard', taskQueue: 'payments', input: [jsonPayload({ amount: 1999 })], header: sampleHeader,
    scheduledEventId: 5, attempt: 1, scheduledTime: sampleTime + 5000, currentAttemptScheduledTime: sampleTime + 5000,
    heartbeatDetails: null, scheduleToCloseTimeoutMs: 600_000, scheduleToStartTimeoutMs: null,
    startToCloseTimeoutMs: 30_000, heartbeatTimeoutMs: null, retryPolicy: sampleRetryPolicy,
    idempotencyKey: 'order-42:1',
  } },
  { name: 'retry-with-heartbeat', value: {
    namespace: 'default', workflowId: 'order-42', runId: sampleRunId, workflowType: 'order', activityId: 'export',
    activityType: 'exportPages', taskQueue: 'exports', input: [], header: {}, scheduledEventId: 9, attempt: 4,
    scheduledTime: sampleTime + 9000, currentAttemptScheduledTime: sampleTime + 60_000,
    heartbeatDetails: jsonPayload({ page: 8 }), scheduleToCloseTimeoutMs: null, scheduleToStartTimeoutMs: 60_000,
    startToCloseTimeoutMs: 3_600_000, heartbeatTimeoutMs: 30_000, retryPolicy: null, idempotencyKey: 'order-42:export',
  } },
];
