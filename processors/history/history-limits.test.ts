import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { HISTORY_LIMIT_WARNING_MARKER } from '../../topics/schemas/history-event/engine-markers.js';
import { defaultHistoryConfig, defaultHistoryLimits, type HistoryConfig, type HistoryLimits } from './config.js';
import { HistoryDriver, json, scheduleActivity } from './test-kit.js';
import type { WorkflowTaskIntent } from './transition.js';

const withLimits = (limits: Partial<HistoryLimits>): HistoryConfig => ({ ...defaultHistoryConfig, limits: { ...defaultHistoryLimits, ...limits } });

/** One loop step of a polling workflow: a 1 s timer, then its firing wakes the next task (5 events). */
function timerStep(d: HistoryDriver, i: number): void {
  d.completeWorkflowTask([{ type: 'StartTimer', timerId: `t${i}`, startToFireTimeoutMs: 1000 }]);
  d.advance(1000);
}

const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

const workflowTasks = (d: HistoryDriver) => d.tasks.filter((t): t is WorkflowTaskIntent => t.type === 'WorkflowTask');
const startedEvents = (d: HistoryDriver) => d.events.filter((e): e is HistoryEvent<'WorkflowTaskStarted'> => e.attributes.type === 'WorkflowTaskStarted');

describe('history limits', () => {
  it('turns the continue-as-new suggestion on at the suggestion count, and WorkflowTaskStarted records what the task told the worker', () => {
    const d = new HistoryDriver(withLimits({ historyCountSuggestContinueAsNew: 20 }));
    d.start();
    for (let i = 0; i < 6; i++) timerStep(d, i);
    const tasks = workflowTasks(d);
    assert.deepEqual(tasks.map((t) => [t.startedEventIdHint, t.suggestContinueAsNew]), [
      [3, false], [8, false], [13, false], [18, false], [23, true], [28, true], [33, true],
    ]);
    const started = startedEvents(d);
    assert.equal(started.length, 6);
    for (const event of started) {
      const task = tasks.find((t) => t.startedEventIdHint === event.eventId)!;
      assert.deepEqual([event.attributes.historySizeBytes, event.attributes.suggestContinueAsNew], [task.historySizeBytes, task.suggestContinueAsNew], `event ${event.eventId}`);
    }
    assert.ok(started.every((e, i) => i === 0 || e.attributes.historySizeBytes > started[i - 1]!.attributes.historySizeBytes), 'the size grows with the history');
  });

  it('predicts the size a transient retry records: its Scheduled event is written only when it completes', () => {
    const d = new HistoryDriver(withLimits({ historySizeSuggestContinueAsNewBytes: 1 }));
    d.start();
    const first = d.lastWorkflowTask();
    d.send('WorkflowTaskFailed', { scheduledEventId: first.scheduledEventId, attempt: 1, identity: 'w', cause: 'WorkflowWorkerUnhandledFailure', failure: null });
    d.advance(1000);
    const second = d.lastWorkflowTask();
    d.send('WorkflowTaskFailed', { scheduledEventId: second.scheduledEventId, attempt: 1, identity: 'w', cause: 'WorkflowWorkerUnhandledFailure', failure: null });
    d.advance(1000);
    const transient = d.lastWorkflowTask();
    assert.equal(transient.attempt, 2);
    assert.ok(transient.scheduledEventId > transient.lastEventId, 'nothing of the retry is written yet');
    d.completeWorkflowTask([]);
    const started = startedEvents(d).at(-1)!;
    assert.equal(started.eventId, transient.startedEventIdHint);
    assert.equal(started.attributes.historySizeBytes, transient.historySizeBytes);
    assert.equal(started.attributes.suggestContinueAsNew, true);
  });

  it('writes the warning marker once, after the commands of the first task that completes at the warning count', () => {
    const d = new HistoryDriver(withLimits({ historyCountWarn: 14 }));
    d.start();
    for (let i = 0; i < 5; i++) timerStep(d, i);
    const markers = d.events.filter((e) => e.attributes.type === 'MarkerRecorded');
    assert.equal(markers.length, 1);
    const marker = markers[0]!;
    assert.ok(marker.attributes.type === 'MarkerRecorded');
    assert.equal(marker.attributes.markerName, HISTORY_LIMIT_WARNING_MARKER);
    assert.deepEqual(marker.attributes.details.historyLength, [json(marker.eventId)]);
    const before = d.events[marker.eventId - 2]!;
    assert.equal(before.attributes.type, 'TimerStarted', 'the marker follows the task\'s command events');
    assert.ok(marker.eventId >= 14);
    assert.equal(d.state!.historyLimitWarned, true);
  });

  it('refuses workflow markers named like the engine\'s, so replay can tell them apart', () => {
    const d = new HistoryDriver();
    d.start();
    d.completeWorkflowTask([{ type: 'RecordMarker', markerName: HISTORY_LIMIT_WARNING_MARKER, details: {}, header: {}, failure: null }]);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed' && failed.attributes.cause === 'BadRecordMarkerAttributes');
  });

  it('terminates a run past the hard event-count limit with a reason naming the limit, and withdraws the tasks of that input', () => {
    const d = new HistoryDriver(withLimits({ historyCountLimit: 30 }));
    d.start();
    let i = 0;
    while (d.state!.executionInfo.status === 'Running' && i < 20) timerStep(d, i++);
    assert.equal(d.state!.executionInfo.status, 'Terminated');
    const terminated = d.events.at(-1)!;
    assert.ok(terminated.attributes.type === 'WorkflowExecutionTerminated');
    assert.match(terminated.attributes.reason, /history event count limit exceeded: \d+ events, the limit is 30/);
    assert.equal(terminated.attributes.identity, 'logbook-history-limits');
    assert.ok(terminated.eventId > 30 && terminated.eventId <= 33, `terminated right after passing the limit (event ${terminated.eventId})`);
    const lastTransition = d.last!;
    assert.deepEqual(lastTransition.tasks.filter((t) => t.type === 'WorkflowTask'), [], 'no workflow task is sent for the terminated run');
    assert.equal(d.state!.closeFailure?.message, terminated.attributes.reason);
  });

  it('terminates a run past the hard size limit', () => {
    const d = new HistoryDriver(withLimits({ historySizeLimitBytes: 40_000 }));
    d.start();
    const big = json('x'.repeat(8_000));
    for (let i = 0; i < 10 && d.state!.executionInfo.status === 'Running'; i++) {
      d.completeWorkflowTask([{ type: 'RecordMarker', markerName: 'snapshot', details: { data: [big] }, header: {}, failure: null }]);
      signal(d, `wake-${i}`);
    }
    assert.equal(d.state!.executionInfo.status, 'Terminated');
    assert.ok(d.state!.executionInfo.historySizeBytes > 40_000);
    const terminated = d.events.at(-1)!;
    assert.ok(terminated.attributes.type === 'WorkflowExecutionTerminated');
    assert.match(terminated.attributes.reason, /history size limit exceeded: \d+ bytes, the limit is 40000/);
    assert.equal(d.events.filter((e) => e.attributes.type === 'MarkerRecorded').length, 5, 'five 8 kB markers pass 40 kB');
  });

  it('fails the workflow task that would exceed the pending-activity limit, naming the limit', () => {
    const d = new HistoryDriver(withLimits({ maxPendingActivities: 3 }));
    d.start();
    d.completeWorkflowTask([scheduleActivity('a1'), scheduleActivity('a2'), scheduleActivity('a3'), scheduleActivity('a4')]);
    const failed = d.events.find((e) => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.ok(failed.attributes.type === 'WorkflowTaskFailed');
    assert.equal(failed.attributes.cause, 'BadScheduleActivityAttributes');
    assert.equal(failed.attributes.failure?.code, 'PendingActivitiesLimitExceeded');
    assert.match(failed.attributes.failure?.message ?? '', /already has 3 pending activities/);
    assert.deepEqual(d.state!.pendingActivities, []);
    d.advance(1000);
    d.completeWorkflowTask([scheduleActivity('a1'), scheduleActivity('a2'), scheduleActivity('a3')]);
    assert.equal(d.state!.pendingActivities.length, 3, 'up to the limit is fine');
  });

  it('refuses signals past the per-run limit with LimitExceeded; the next run of the chain accepts them again', () => {
    const d = new HistoryDriver(withLimits({ maxSignalsPerRun: 3 }));
    d.start();
    for (let i = 0; i < 3; i++) assert.equal(signal(d, `s${i}`).rejection, null);
    const refused = d.send('SignalWorkflowExecution', { signalName: 'one-too-many', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false }, { replyTo: 'sig-4' });
    assert.equal(refused.rejection?.code, 'LimitExceeded');
    assert.match(refused.rejection!.message, /already accepted 3 signals/);
    assert.equal(refused.replies[0]?.failure?.code, 'LimitExceeded');
    d.completeWorkflowTask([]);
    d.completeWorkflowTask([{
      type: 'ContinueAsNewWorkflowExecution', workflowType: 'order', taskQueue: null, input: [], workflowRunTimeoutMs: null,
      workflowTaskTimeoutMs: null, backoffStartIntervalMs: null, retryPolicy: null, header: {}, memo: null, searchAttributes: null,
    }]);
    assert.equal(d.state!.signalCount, 0);
    assert.equal(signal(d, 'after').rejection, null);
  });

  it('applies limits of a namespace over the defaults', () => {
    const d = new HistoryDriver({ ...defaultHistoryConfig, namespaceLimits: { default: { historyCountSuggestContinueAsNew: 3 } } });
    d.start();
    assert.equal(d.lastWorkflowTask().suggestContinueAsNew, true);
    const other = new HistoryDriver({ ...defaultHistoryConfig, namespaceLimits: { other: { historyCountSuggestContinueAsNew: 3 } } });
    other.start();
    assert.equal(other.lastWorkflowTask().suggestContinueAsNew, false);
  });
});
