import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import { failure, HistoryDriver, json, retryPolicy, scheduleActivity, T0 } from './test-kit.js';
import type { ActivityTaskIntent, CancelActivityIntent } from './transition.js';
import { defaultHistoryConfig } from './config.js';
import { UNCLAIMED_CANCEL_IDENTITY } from './activity-lifecycle.js';

/** A run with one scheduled activity (scheduled event 5), its first workflow task completed. */
function withActivity(command: WorkflowCommand = scheduleActivity('a1')): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([command]);
  return d;
}

const activityTasks = (d: HistoryDriver) => d.tasks.filter((t): t is ActivityTaskIntent => t.type === 'ActivityTask');
const claim = (d: HistoryDriver, attempt: number) => d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt, identity: `aw-${attempt}` });
const fail = (d: HistoryDriver, attempt: number, code = 'Boom', details: ReturnType<typeof json> | null = null) =>
  d.send('ActivityTaskFailed', { scheduledEventId: 5, attempt, identity: `aw-${attempt}`, failure: failure(code), lastHeartbeatDetails: details });

describe('activities', () => {
  it('retries per the policy without growing history, then writes the final Started and Failed', () => {
    const d = withActivity(scheduleActivity('a1', { retryPolicy: retryPolicy({ initialIntervalMs: 1000, backoffCoefficient: 3, maximumIntervalMs: 5000, maximumAttempts: 5 }) }));
    const historyBefore = d.events.length;
    const dispatchedAt: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const task = activityTasks(d).at(-1)!;
      assert.equal(task.attempt, attempt);
      dispatchedAt.push(task.currentAttemptScheduledTime - T0);
      claim(d, attempt);
      d.now += 100;
      fail(d, attempt, 'Boom', json({ page: attempt }));
      if (attempt < 5) {
        assert.equal(d.events.length, historyBefore, 'no history while retrying');
        assert.equal(d.state!.pendingActivities[0]!.lastFailure!.code, 'Boom');
        d.advance(d.state!.pendingActivities[0]!.currentAttemptScheduledTime - d.now);
      }
    }
    // backoffs: 1000, 3000, 5000 (capped), 5000 — each after a 100 ms attempt.
    assert.deepEqual(dispatchedAt, [0, 1100, 4200, 9300, 14_400]);
    assert.deepEqual(activityTasks(d).map((t) => t.heartbeatDetails), [null, json({ page: 1 }), json({ page: 2 }), json({ page: 3 }), json({ page: 4 })]);
    assert.deepEqual(d.types().slice(historyBefore), ['ActivityTaskStarted', 'ActivityTaskFailed', 'WorkflowTaskScheduled']);
    const [started, failed] = d.events.slice(historyBefore);
    assert.ok(started!.attributes.type === 'ActivityTaskStarted' && failed!.attributes.type === 'ActivityTaskFailed');
    assert.deepEqual([started!.attributes.attempt, started!.attributes.identity, started!.attributes.lastFailure?.code], [5, 'aw-5', 'Boom']);
    assert.deepEqual([failed!.attributes.retryState, failed!.attributes.startedEventId], ['MaximumAttemptsReached', started!.eventId]);
    assert.deepEqual(d.state!.pendingActivities, []);
  });

  it('does not retry a failure whose code is non-retryable, or that says so', () => {
    for (const [code, nonRetryable] of [['CardDeclined', false], ['Other', true]] as const) {
      const d = withActivity(scheduleActivity('a1', { retryPolicy: retryPolicy({ nonRetryableErrorTypes: ['CardDeclined'] }) }));
      claim(d, 1);
      d.send('ActivityTaskFailed', { scheduledEventId: 5, attempt: 1, identity: 'aw', failure: failure(code, nonRetryable), lastHeartbeatDetails: null });
      const failed = d.events.find((e) => e.attributes.type === 'ActivityTaskFailed')!.attributes;
      assert.equal(failed.type === 'ActivityTaskFailed' && failed.retryState, 'NonRetryableFailure');
    }
  });

  it('ignores a late result of a superseded attempt, and a second result of the same attempt', () => {
    const d = withActivity();
    claim(d, 1);
    fail(d, 1);
    d.advance(1000);
    const late = d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', result: json('late') });
    assert.equal(late.rejection?.code, 'StaleActivityResult');
    assert.equal(late.changed, false);
    d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 2, identity: 'aw-2', result: json('ok') });
    const second = d.send('ActivityTaskFailed', { scheduledEventId: 5, attempt: 2, identity: 'aw-2', failure: failure('x'), lastHeartbeatDetails: null });
    assert.equal(second.rejection?.code, 'StaleActivityResult');
    const started = d.events.find((e) => e.attributes.type === 'ActivityTaskStarted')!.attributes;
    assert.ok(started.type === 'ActivityTaskStarted');
    assert.deepEqual([started.attempt, started.identity, started.requestId], [2, 'aw-2', 'req-7']);
  });

  it('refuses a claim of an attempt that is still waiting for its backoff', () => {
    const d = withActivity();
    claim(d, 1);
    fail(d, 1);
    assert.equal(claim(d, 2).rejection?.code, 'StaleActivityResult');
  });

  it('times out a queued attempt after schedule-to-start without a Started event and without retrying', () => {
    const d = withActivity(scheduleActivity('a1', { scheduleToStartTimeoutMs: 5000 }));
    d.advance(4999);
    assert.equal(d.state!.pendingActivities.length, 1);
    d.advance(1);
    assert.deepEqual(d.types().slice(5), ['ActivityTaskTimedOut', 'WorkflowTaskScheduled']);
    const timedOut = d.events[5]!.attributes;
    assert.ok(timedOut.type === 'ActivityTaskTimedOut');
    assert.deepEqual([timedOut.timeoutType, timedOut.startedEventId, timedOut.retryState], ['ScheduleToStart', null, 'NonRetryableFailure']);
  });

  it('retries an attempt that ran past start-to-close, counting from the claim', () => {
    const d = withActivity(scheduleActivity('a1', { startToCloseTimeoutMs: 10_000 }));
    d.now += 60_000;
    claim(d, 1);
    d.advance(9_999);
    assert.equal(d.state!.pendingActivities[0]!.attempt, 1);
    d.advance(1);
    const activity = d.state!.pendingActivities[0]!;
    assert.deepEqual([activity.attempt, activity.lastFailure!.code, activity.currentAttemptScheduledTime], [2, 'ActivityTimeout', d.now + 1000]);
    assert.equal(d.events.length, 5);
  });

  it('times out a silent attempt after the heartbeat timeout, measured from the last heartbeat', () => {
    const d = withActivity(scheduleActivity('a1', { heartbeatTimeoutMs: 3000, retryPolicy: retryPolicy({ maximumAttempts: 1 }) }));
    claim(d, 1);
    d.advance(2000);
    d.send('ActivityTaskHeartbeat', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: json({ step: 7 }) });
    d.advance(2999);
    assert.equal(d.state!.pendingActivities.length, 1, 'the heartbeat moved the deadline');
    d.advance(1);
    const timedOut = d.events.find((e) => e.attributes.type === 'ActivityTaskTimedOut')!.attributes;
    assert.ok(timedOut.type === 'ActivityTaskTimedOut');
    assert.deepEqual([timedOut.timeoutType, timedOut.retryState], ['Heartbeat', 'MaximumAttemptsReached']);
    assert.deepEqual(timedOut.failure.details, json({ step: 7 }));
  });

  it('defaults start-to-close to schedule-to-close and schedules no retry past schedule-to-close', () => {
    const d = withActivity(scheduleActivity('a1', { startToCloseTimeoutMs: null, scheduleToCloseTimeoutMs: 2500 }));
    const scheduled = d.events[4]!.attributes;
    assert.equal(scheduled.type === 'ActivityTaskScheduled' && scheduled.startToCloseTimeoutMs, 2500);
    claim(d, 1);
    d.now += 1000;
    fail(d, 1); // retry at +2000 ≤ deadline 2500
    d.advance(1000);
    claim(d, 2);
    d.now += 200;
    fail(d, 2); // next backoff 2000 → +4200 > deadline: no retry
    const failed = d.events.find((e) => e.attributes.type === 'ActivityTaskFailed')!.attributes;
    assert.equal(failed.type === 'ActivityTaskFailed' && failed.retryState, 'Timeout');
  });

  it('ends the activity at schedule-to-close with the current attempt Started only if it was claimed', () => {
    const d = withActivity(scheduleActivity('a1', { scheduleToCloseTimeoutMs: 5000, startToCloseTimeoutMs: 3500 }));
    claim(d, 1);
    d.advance(3500); // attempt 1 times out; attempt 2 is due at 4500, before the deadline
    d.advance(1500);
    assert.deepEqual(d.types().slice(5), ['ActivityTaskTimedOut', 'WorkflowTaskScheduled']);
    const timedOut = d.events[5]!.attributes;
    assert.ok(timedOut.type === 'ActivityTaskTimedOut');
    assert.deepEqual([timedOut.timeoutType, timedOut.retryState, timedOut.startedEventId], ['ScheduleToClose', 'Timeout', null]);
    assert.equal(timedOut.failure.cause?.code, 'ActivityTimeout', 'the cause is the last attempt failure');
  });
});

describe('activity cancellation', () => {
  function withClaimedAndWaitingTask(claimIt: boolean): HistoryDriver {
    const d = withActivity();
    if (claimIt) claim(d, 1);
    d.send('SignalWorkflowExecution', { signalName: 'cancel-it', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    return d;
  }

  const cancelIntents = (d: HistoryDriver) => d.tasks.filter((t): t is CancelActivityIntent => t.type === 'CancelActivity').map((c) => [c.scheduledEventId, c.attempt, c.reason]);
  const REQUESTED = [5, 1, 'cancel requested by the workflow'];
  const GRACE = defaultHistoryConfig.unclaimedActivityCancelGraceMs;

  it('asks a worker that may run an unclaimed activity to stop, and closes the activity when that worker answers', () => {
    const d = withClaimedAndWaitingTask(false);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    assert.deepEqual(d.types().slice(7), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'ActivityTaskCancelRequested']);
    assert.deepEqual(cancelIntents(d), [REQUESTED]);
    assert.deepEqual(d.timers().filter((t) => t.kind === 'UnclaimedActivityCancel').map((t) => t.fireTime - d.now), [GRACE]);
    d.send('ActivityTaskCanceled', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: json('stopped') });
    assert.deepEqual(d.types().slice(-3), ['ActivityTaskStarted', 'ActivityTaskCanceled', 'WorkflowTaskScheduled']);
    assert.deepEqual([d.state!.pendingActivities, d.state!.activityCancelDeadlines], [[], []]);
  });

  it('cancels an unclaimed activity itself when no worker claims or answers it within the grace, and a late answer changes nothing', () => {
    const d = withClaimedAndWaitingTask(false);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    d.advance(GRACE - 1);
    assert.equal(d.types().at(-1), 'ActivityTaskCancelRequested', 'still waiting within the grace');
    d.advance(1);
    assert.deepEqual(d.types().slice(-2), ['ActivityTaskCanceled', 'WorkflowTaskScheduled']);
    const canceled = d.events.at(-2)!.attributes;
    assert.ok(canceled.type === 'ActivityTaskCanceled');
    assert.deepEqual([canceled.startedEventId, canceled.identity], [null, UNCLAIMED_CANCEL_IDENTITY]);
    assert.deepEqual([d.state!.pendingActivities, d.state!.activityCancelDeadlines], [[], []]);
    const late = d.send('ActivityTaskCanceled', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: null });
    assert.deepEqual([late.events.length, late.rejection?.code], [0, 'StaleActivityResult']);
  });

  it('tells a worker that claims an activity after its cancellation was requested to stop, and then waits for it past the grace', () => {
    const d = withClaimedAndWaitingTask(false);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    claim(d, 1);
    assert.deepEqual(cancelIntents(d), [REQUESTED, REQUESTED]);
    assert.deepEqual(d.state!.activityCancelDeadlines, [], 'the claim ends the grace');
    d.advance(2 * GRACE);
    assert.equal(d.types().at(-1), 'ActivityTaskCancelRequested', 'the claimed activity closes when its worker answers');
    assert.equal(d.state!.pendingActivities.length, 1);
  });

  it('a heartbeat of an unclaimed activity asked to cancel claims it, ends the grace and is answered with the cancellation again', () => {
    const d = withClaimedAndWaitingTask(false);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    d.send('ActivityTaskHeartbeat', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: null });
    assert.deepEqual(cancelIntents(d), [REQUESTED, REQUESTED]);
    assert.deepEqual([d.state!.activityCancelDeadlines, d.state!.pendingActivities[0]!.startedIdentity], [[], 'aw-1']);
  });

  it('cancels at once an activity whose attempt waits for its retry backoff (no worker runs it)', () => {
    const d = withActivity(scheduleActivity('a1', { retryPolicy: retryPolicy() }));
    claim(d, 1);
    fail(d, 1);
    d.send('SignalWorkflowExecution', { signalName: 'cancel-it', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    const intentsBefore = cancelIntents(d).length;
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    assert.deepEqual(d.types().slice(-3), ['ActivityTaskCancelRequested', 'ActivityTaskCanceled', 'WorkflowTaskScheduled']);
    assert.equal(cancelIntents(d).length, intentsBefore, 'no worker to tell');
    assert.deepEqual(d.state!.pendingActivities, []);
  });

  it('asks the worker of a claimed activity to stop and closes it when the worker confirms', () => {
    const d = withClaimedAndWaitingTask(true);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    assert.deepEqual(d.types().slice(-3), ['WorkflowTaskStarted', 'WorkflowTaskCompleted', 'ActivityTaskCancelRequested']);
    const cancel = d.tasks.at(-1) as CancelActivityIntent;
    assert.deepEqual([cancel.type, cancel.activityId, cancel.scheduledEventId, cancel.attempt, cancel.taskQueue], ['CancelActivity', 'a1', 5, 1, 'orders']);
    const requestedId = d.events.at(-1)!.eventId;
    d.send('ActivityTaskCanceled', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: json('stopped') });
    assert.deepEqual(d.types().slice(-3), ['ActivityTaskStarted', 'ActivityTaskCanceled', 'WorkflowTaskScheduled']);
    const canceled = d.events.at(-2)!.attributes;
    assert.ok(canceled.type === 'ActivityTaskCanceled');
    assert.deepEqual([canceled.latestCancelRequestedEventId, canceled.startedEventId], [requestedId, d.events.at(-3)!.eventId]);
  });

  it('refuses a cancellation acknowledgement nobody asked for', () => {
    const d = withActivity();
    claim(d, 1);
    const t = d.send('ActivityTaskCanceled', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: null });
    assert.equal(t.rejection?.code, 'ActivityNotCancelRequested');
  });

  it('does not retry a failure after a cancellation was requested', () => {
    const d = withClaimedAndWaitingTask(true);
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    fail(d, 1);
    const failed = d.events.find((e) => e.attributes.type === 'ActivityTaskFailed')!.attributes;
    assert.equal(failed.type === 'ActivityTaskFailed' && failed.retryState, 'CancelRequested');
  });
});
