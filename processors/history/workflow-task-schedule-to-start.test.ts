import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { HistoryDriver, json, T0 } from './test-kit.js';
import type { WorkflowTaskIntent } from './transition.js';

const config: HistoryConfig = { ...defaultHistoryConfig, workflowTaskScheduleToStartTimeoutMs: 1_000, maxWorkflowTaskScheduleToStartTimeoutMs: 8_000 };

const workflowTasks = (d: HistoryDriver) => d.tasks.filter((t): t is WorkflowTaskIntent => t.type === 'WorkflowTask');
const signal = (d: HistoryDriver, name: string) =>
  d.send('SignalWorkflowExecution', { signalName: name, input: [json(name)], identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false });

describe('workflow-task schedule-to-start timeout', () => {
  it('times out a dispatched workflow task nobody claims, records WorkflowTaskTimedOut(ScheduleToStart) and sends the next attempt at once', () => {
    const d = new HistoryDriver(config);
    d.start();
    assert.deepEqual(d.advance(999), [], 'not before its deadline');
    d.advance(1);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskTimedOut']);
    assert.deepEqual(d.events[2]!.attributes, { type: 'WorkflowTaskTimedOut', scheduledEventId: 2, startedEventId: null, timeoutType: 'ScheduleToStart' });
    const next = d.lastWorkflowTask();
    assert.deepEqual([next.attempt, next.scheduledEventId, next.scheduledTime, next.lastEventId], [2, 4, T0 + 1_000, 3]);
    assert.equal(d.state!.workflowTaskDispatched, true, 'sent again with no backoff: the timeout already waited');
  });

  it('doubles the timeout per attempt up to its cap, and later attempts write nothing to history', () => {
    const d = new HistoryDriver(config);
    d.start();
    const timedOutAt: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const deadline = d.timers().find((t) => t.kind === 'WorkflowTaskScheduleToStart')!;
      timedOutAt.push(deadline.fireTime - T0);
      d.advance(deadline.fireTime - d.now);
    }
    assert.deepEqual(timedOutAt, [1_000, 3_000, 7_000, 15_000, 23_000], 'waits 1 s, 2 s, 4 s, 8 s, 8 s (capped)');
    assert.deepEqual(workflowTasks(d).map((t) => t.attempt), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskTimedOut']);
  });

  it('is disarmed by a claim, after which the start-to-close timeout counts', () => {
    const d = new HistoryDriver(config);
    d.start();
    d.now += 500;
    d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w' });
    assert.deepEqual(d.timers().map((t) => [t.kind, t.fireTime]), [['WorkflowTaskTimeout', T0 + 500 + 10_000]]);
    assert.deepEqual(d.advance(5_000), []);
  });

  it('makes a late claim and completion of the timed-out attempt stale; the new attempt completes with its own Scheduled and Started', () => {
    const d = new HistoryDriver(config);
    d.start();
    d.advance(1_000);
    const lateClaim = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'slow' });
    assert.equal(lateClaim.rejection?.code, 'StaleWorkflowTaskClaim');
    const late = d.send('WorkflowTaskCompleted', { scheduledEventId: 2, attempt: 1, identity: 'slow', commands: [], sdkFlags: [], sdkName: null, sdkVersion: null });
    assert.equal(late.rejection?.code, 'StaleWorkflowTaskCompletion');
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }]);
    assert.deepEqual(d.types(), [
      'WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskTimedOut',
      'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCompleted',
    ]);
    const rescheduled = d.events[3]!.attributes;
    assert.equal(rescheduled.type === 'WorkflowTaskScheduled' && rescheduled.attempt, 2);
  });

  it('appends the events buffered while the task waited before the next attempt, which carries them', () => {
    const d = new HistoryDriver(config);
    d.start();
    signal(d, 'meanwhile');
    assert.equal(d.state!.bufferedEvents.length, 1);
    d.advance(1_000);
    assert.deepEqual(d.types().slice(2), ['WorkflowTaskTimedOut', 'WorkflowExecutionSignaled']);
    const next = d.lastWorkflowTask();
    assert.deepEqual([next.scheduledEventId, next.lastEventId], [5, 4]);
  });

  it('times out an unclaimed speculative update task too: its Scheduled is written, then WorkflowTaskTimedOut', () => {
    const d = new HistoryDriver(config);
    d.start();
    d.completeWorkflowTask([]);
    const request = { updateId: 'u1', identity: 'client', name: 'addItem', header: {}, args: [json(1)] };
    d.send('UpdateWorkflowExecution', { request, waitForStage: 'Completed' }, { replyTo: 'caller' });
    const speculative = d.lastWorkflowTask();
    assert.deepEqual([speculative.scheduledEventId, speculative.lastEventId], [5, 4]);
    d.advance(1_000);
    assert.deepEqual(d.types().slice(4), ['WorkflowTaskScheduled', 'WorkflowTaskTimedOut']);
    const next = d.lastWorkflowTask();
    assert.deepEqual([next.attempt, next.scheduledEventId, next.messages.length], [2, 7, 1], 'the update rides on the next attempt');
  });

  it('defaults to five minutes, growing to an hour, so a queue that is merely behind is not flooded with copies', () => {
    const d = new HistoryDriver();
    d.start();
    assert.equal(d.timers().find((t) => t.kind === 'WorkflowTaskScheduleToStart')!.fireTime, T0 + 5 * 60_000);
    assert.deepEqual([defaultHistoryConfig.workflowTaskScheduleToStartTimeoutMs, defaultHistoryConfig.maxWorkflowTaskScheduleToStartTimeoutMs], [300_000, 3_600_000]);
  });
});
