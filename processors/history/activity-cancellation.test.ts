import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Payload } from '../../topics/payload/payload.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { defaultHistoryConfig, defaultHistoryLimits, type HistoryConfig } from './config.js';
import { PAYLOAD_TOO_LARGE } from './payload-limits.js';
import { HistoryDriver, json, retryPolicy, scheduleActivity } from './test-kit.js';
import type { CancelActivityIntent } from './transition.js';

/** A run whose activity (scheduled event 5) was claimed by a worker, the workflow task completed. */
function withClaimedActivity(config: HistoryConfig = defaultHistoryConfig): HistoryDriver {
  const d = new HistoryDriver(config);
  d.start();
  d.completeWorkflowTask([scheduleActivity('a1', { retryPolicy: retryPolicy() })]);
  d.send('ActivityTaskStarted', { scheduledEventId: 5, attempt: 1, identity: 'aw-1' });
  return d;
}

const cancelIntents = (d: HistoryDriver) => d.tasks.filter((t): t is CancelActivityIntent => t.type === 'CancelActivity');
const heartbeat = (d: HistoryDriver) => d.send('ActivityTaskHeartbeat', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: json('page 3') });

describe('activity cancellation and results', () => {
  it('a heartbeat of an activity asked to cancel tells its worker again (the heartbeat response of Temporal)', () => {
    const d = withClaimedActivity();
    heartbeat(d);
    assert.equal(cancelIntents(d).length, 0, 'no cancellation was requested yet');
    d.send('SignalWorkflowExecution', { signalName: 'wake', input: [], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
    d.completeWorkflowTask([{ type: 'RequestCancelActivityTask', scheduledEventId: 5 }]);
    assert.equal(cancelIntents(d).length, 1, 'the request itself');
    heartbeat(d);
    const intents = cancelIntents(d);
    assert.equal(intents.length, 2, 'and once more for the heartbeat');
    assert.deepEqual([intents[1]!.scheduledEventId, intents[1]!.attempt, intents[1]!.reason], [5, 1, 'cancel requested by the workflow']);
  });

  it('an activity result over the payload limit fails the activity without a retry', () => {
    const config: HistoryConfig = { ...defaultHistoryConfig, limits: { ...defaultHistoryLimits, maxPayloadBytes: 50 } };
    const d = withClaimedActivity(config);
    const big: Payload = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.alloc(51, 0x61) };
    d.send('ActivityTaskCompleted', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', result: big });
    const failed = d.events.find((e): e is HistoryEvent<'ActivityTaskFailed'> => e.attributes.type === 'ActivityTaskFailed');
    assert.ok(failed, d.types().join());
    assert.equal(failed.attributes.retryState, 'NonRetryableFailure');
    assert.equal(failed.attributes.failure.code, PAYLOAD_TOO_LARGE);
    assert.match(failed.attributes.failure.message, /the activity result: payload result is 51 bytes, over the limit of 50 bytes per payload/);
    assert.equal(d.types().includes('ActivityTaskCompleted'), false);
  });

  it('heartbeat details or a failure over the payload limit fail the activity without a retry', () => {
    const config: HistoryConfig = { ...defaultHistoryConfig, limits: { ...defaultHistoryLimits, maxPayloadBytes: 50 } };
    const big: Payload = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.alloc(51, 0x61) };
    const heartbeating = withClaimedActivity(config);
    heartbeating.send('ActivityTaskHeartbeat', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', details: big });
    const failing = withClaimedActivity(config);
    const failure = { message: 'boom', source: 'TypeScriptSDK', stackTrace: '', code: 'Boom', nonRetryable: false, details: big, cause: null };
    failing.send('ActivityTaskFailed', { scheduledEventId: 5, attempt: 1, identity: 'aw-1', failure, lastHeartbeatDetails: null });
    for (const [d, message] of [[heartbeating, /the heartbeat details: payload details is 51 bytes/], [failing, /the activity failure: payload failure.details is 51 bytes/]] as const) {
      const failed = d.events.find((e): e is HistoryEvent<'ActivityTaskFailed'> => e.attributes.type === 'ActivityTaskFailed');
      assert.ok(failed, d.types().join());
      assert.equal(failed.attributes.retryState, 'NonRetryableFailure');
      assert.match(failed.attributes.failure.message, message);
    }
  });

  it('a worker that could not send its completion (PayloadTooLarge) gets the run terminated with its message', () => {
    const d = new HistoryDriver();
    d.start();
    const { scheduledEventId, attempt } = d.lastWorkflowTask();
    d.send('WorkflowTaskStarted', { scheduledEventId, attempt, identity: 'w' });
    const failure = { message: 'a record for commands is 3000000 bytes', source: 'TypeScriptSDK', stackTrace: '', code: PAYLOAD_TOO_LARGE, nonRetryable: true, details: null, cause: null };
    d.send('WorkflowTaskFailed', { scheduledEventId, attempt, identity: 'w', cause: 'PayloadTooLarge', failure });
    assert.deepEqual(d.types().slice(-3), ['WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionTerminated']);
    assert.equal(d.state?.executionInfo.status, 'Terminated');
    const terminated = d.events.at(-1) as HistoryEvent<'WorkflowExecutionTerminated'>;
    assert.equal(terminated.attributes.reason, 'a record for commands is 3000000 bytes');
  });

  it('other workflow task failures are still retried', () => {
    const d = new HistoryDriver();
    d.start();
    const { scheduledEventId, attempt } = d.lastWorkflowTask();
    d.send('WorkflowTaskFailed', { scheduledEventId, attempt, identity: 'w', cause: 'NonDeterministicError', failure: null });
    assert.equal(d.state?.executionInfo.status, 'Running');
    assert.equal(d.state?.pendingWorkflowTask?.attempt, 2);
  });
});
