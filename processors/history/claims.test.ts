import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryDriver, json, scheduleActivity, T0 } from './test-kit.js';

/** A run with one scheduled activity (scheduled event 5), its first workflow task completed. */
function withActivity(): HistoryDriver {
  const d = new HistoryDriver();
  d.start();
  d.completeWorkflowTask([scheduleActivity('a1')]);
  return d;
}

const activityClaim = { scheduledEventId: 5, attempt: 1 };

describe('one attempt has one holder', () => {
  it('refuses a claim for an activity attempt another claim holds, so a redelivered task does not run beside the original', () => {
    const d = withActivity();
    d.now += 100;
    d.send('ActivityTaskStarted', { ...activityClaim, identity: 'worker-a' }, { requestId: 'claim-a' });
    const startToClose = d.state!.pendingActivities[0]!.startedTime;
    d.now += 5_000;
    const redelivered = d.send('ActivityTaskStarted', { ...activityClaim, identity: 'worker-b' }, { requestId: 'claim-b', replyTo: 'gw-b' });
    assert.equal(redelivered.rejection?.code, 'StaleActivityClaim');
    assert.match(redelivered.rejection!.message, /worker 'worker-a' holds it/);
    assert.equal(redelivered.changed, false);
    assert.deepEqual(redelivered.replies.map((r) => [r.requestId, r.kind, r.failure?.code]), [['gw-b', 'Error', 'StaleActivityClaim']]);
    assert.equal(d.state!.pendingActivities[0]!.startedTime, startToClose, 'the holder keeps its start-to-close deadline');
    d.send('ActivityTaskCompleted', { ...activityClaim, identity: 'worker-a', result: json('charged') });
    const started = d.events.find((e) => e.attributes.type === 'ActivityTaskStarted')!;
    assert.deepEqual(started.attributes.type === 'ActivityTaskStarted' && [started.attributes.identity, started.attributes.requestId], ['worker-a', 'claim-a']);
  });

  it('refuses a second claim under the same identity too: another delivery of the task is another claim', () => {
    const d = withActivity();
    d.send('ActivityTaskStarted', { ...activityClaim, identity: '42@host' }, { requestId: 'delivery-1' });
    const second = d.send('ActivityTaskStarted', { ...activityClaim, identity: '42@host' }, { requestId: 'delivery-2', replyTo: 'gw-2' });
    assert.equal(second.rejection?.code, 'StaleActivityClaim');
  });

  it("accepts the holder's repeated activity claim (a retried write, same request id) and changes nothing", () => {
    const d = withActivity();
    d.send('ActivityTaskStarted', { ...activityClaim, identity: 'worker-a' }, { requestId: 'claim-a' });
    d.now += 1_000;
    const again = d.send('ActivityTaskStarted', { ...activityClaim, identity: 'worker-a' }, { requestId: 'claim-a', replyTo: 'gw-a' });
    assert.equal(again.rejection, null);
    assert.equal(again.changed, false);
    assert.deepEqual(again.replies.map((r) => [r.requestId, r.kind]), [['gw-a', 'Accepted']]);
    assert.equal(d.state!.pendingActivities[0]!.startedTime, T0, 'the deadline still counts from the first claim');
  });

  it('answers an activity claim that asks, once it holds the attempt', () => {
    const d = withActivity();
    const claimed = d.send('ActivityTaskStarted', { ...activityClaim, identity: 'worker-a' }, { replyTo: 'gw-a' });
    assert.deepEqual(claimed.replies.map((r) => [r.requestId, r.kind, r.runId]), [['gw-a', 'Accepted', 'run-1']]);
  });

  it('refuses a claim for a workflow task attempt another claim holds, and the first holder is the one recorded', () => {
    const d = new HistoryDriver();
    d.start();
    d.now += 100;
    const first = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' }, { requestId: 'claim-1', replyTo: 'gw-1' });
    assert.deepEqual(first.replies.map((r) => [r.requestId, r.kind]), [['gw-1', 'Accepted']]);
    d.now += 100;
    const other = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w2' }, { requestId: 'claim-2', replyTo: 'gw-2' });
    assert.equal(other.rejection?.code, 'StaleWorkflowTaskClaim');
    assert.deepEqual(other.replies.map((r) => [r.requestId, r.kind]), [['gw-2', 'Error']]);
    const again = d.send('WorkflowTaskStarted', { scheduledEventId: 2, attempt: 1, identity: 'w1' }, { requestId: 'claim-1' });
    assert.deepEqual([again.rejection, again.changed], [null, false]);
    d.completeWorkflowTask([], false);
    const started = d.events.find((e) => e.attributes.type === 'WorkflowTaskStarted')!;
    assert.equal(started.eventTime, T0 + 100);
    assert.deepEqual(started.attributes.type === 'WorkflowTaskStarted' && [started.attributes.identity, started.attributes.requestId], ['w1', 'claim-1']);
  });
});
