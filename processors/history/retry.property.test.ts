import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RetryPolicy } from '../../topics/schemas/common/v1-records.js';
import { failure, HistoryDriver, scheduleActivity, T0 } from './test-kit.js';
import type { ActivityTaskIntent } from './transition.js';

interface Attempt {
  claimAfter: number;
  runFor: number;
  code: 'A' | 'B' | 'C';
}

/** The policy written out independently of the machine: what Temporal documents. */
function expectedSchedule(policy: RetryPolicy, attempts: readonly Attempt[], deadline: number | null) {
  const initial = policy.initialIntervalMs || 1000;
  const coefficient = policy.backoffCoefficient || 2;
  const cap = policy.maximumIntervalMs || 100 * initial;
  const dispatches = [T0];
  for (let n = 1; ; n++) {
    const attempt = attempts[(n - 1) % attempts.length]!;
    const failedAt = dispatches[n - 1]! + attempt.claimAfter + attempt.runFor;
    if (policy.maximumAttempts > 0 && n >= policy.maximumAttempts) return { dispatches, retryState: 'MaximumAttemptsReached', attempts: n };
    if (policy.nonRetryableErrorTypes.includes(attempt.code)) return { dispatches, retryState: 'NonRetryableFailure', attempts: n };
    const backoff = Math.min(Math.floor(initial * Math.pow(coefficient, n - 1)), cap);
    if (deadline !== null && failedAt + backoff >= deadline) return { dispatches, retryState: 'Timeout', attempts: n };
    dispatches.push(failedAt + backoff);
    if (n >= 12) return { dispatches, retryState: 'InProgress', attempts: n + 1 };
  }
}

const policy: fc.Arbitrary<RetryPolicy> = fc.record({
  initialIntervalMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 })),
  backoffCoefficient: fc.oneof(fc.constant(0), fc.constantFrom(1, 1.5, 2, 3), fc.double({ min: 1, max: 4, noNaN: true })),
  maximumIntervalMs: fc.option(fc.integer({ min: 5000, max: 300_000 }), { nil: null }),
  maximumAttempts: fc.integer({ min: 0, max: 10 }),
  nonRetryableErrorTypes: fc.subarray(['A', 'B']),
});

describe('activity retries (property)', () => {
  it('follow the retry policy exactly: backoff sequence, interval cap, attempt limit, non-retryable types, deadline', () => {
    fc.assert(
      fc.property(
        policy,
        fc.array(fc.record({ claimAfter: fc.integer({ min: 0, max: 2000 }), runFor: fc.integer({ min: 0, max: 3000 }), code: fc.constantFrom('A' as const, 'B' as const, 'C' as const) }), { minLength: 1, maxLength: 6 }),
        fc.option(fc.integer({ min: 1000, max: 400_000 }), { nil: null }),
        (retryPolicy, attempts, scheduleToClose) => {
          const d = new HistoryDriver();
          d.start();
          d.completeWorkflowTask([scheduleActivity('a', { retryPolicy, startToCloseTimeoutMs: 1_000_000, scheduleToCloseTimeoutMs: scheduleToClose })]);
          const historyLength = d.events.length;
          const expected = expectedSchedule(retryPolicy, attempts, scheduleToClose === null ? null : T0 + scheduleToClose);
          const dispatched = () => d.tasks.filter((t): t is ActivityTaskIntent => t.type === 'ActivityTask');
          for (let n = 1; n <= Math.min(expected.attempts, 12); n++) {
            const { claimAfter, runFor, code } = attempts[(n - 1) % attempts.length]!;
            const task = dispatched().at(-1)!;
            assert.equal(task.attempt, n);
            d.now = task.currentAttemptScheduledTime + claimAfter;
            d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: n, identity: 'aw' });
            d.now += runFor;
            d.send('ActivityTaskFailed', { scheduledEventId: 5, attempt: n, identity: 'aw', failure: failure(code), lastHeartbeatDetails: null });
            const pending = d.state!.pendingActivities[0];
            if (pending) {
              assert.equal(d.events.length, historyLength, 'retries write no history');
              d.advance(pending.currentAttemptScheduledTime - d.now);
            }
          }
          assert.deepEqual(dispatched().map((t) => t.currentAttemptScheduledTime), expected.dispatches);
          const closing = d.events.find((e) => e.attributes.type === 'ActivityTaskFailed')?.attributes;
          if (expected.retryState === 'InProgress') assert.equal(closing, undefined);
          else assert.deepEqual(closing?.type === 'ActivityTaskFailed' && [closing.retryState, d.events[historyLength]!.attributes.type], [expected.retryState, 'ActivityTaskStarted']);
        },
      ),
      { numRuns: 200 },
    );
  });
});
