import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localActivityMarkerCommand } from '../../sdk/replay/local-activity-markers.js';
import { patchMarkerCommand } from '../../sdk/replay/patch-markers.js';
import { sideEffectMarkerCommand } from '../../sdk/replay/side-effect-markers.js';
import { SCHEDULER_TASK_QUEUE } from '../../sdk/schedules/scheduler-protocol.js';
import type { Payload } from '../../topics/payload/payload.js';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { defaultHistoryConfig, type HistoryConfig } from './config.js';
import { findPlaintextPayload, PLAINTEXT_PAYLOAD_REFUSED } from './codec-required.js';
import { failure, HistoryDriver, json, scheduleActivity, startBody } from './test-kit.js';

const guarded = (codecRequiredTaskQueues: string[]): HistoryConfig => ({
  ...defaultHistoryConfig, namespaceGuards: { default: { codecRequiredTaskQueues, refusedSearchAttributes: [] } },
});
const onOrders = guarded(['orders']);
const encrypted = (text: string): Payload => ({ metadata: { encoding: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from('k1') }, data: Buffer.from(`sealed:${text}`) });
const nullPayload: Payload = { metadata: { encoding: Buffer.from('binary/null') }, data: Buffer.alloc(0) };

/** A run on `orders` started with encrypted input, its first workflow task claimed and ready to complete. */
function encryptedRun(config: HistoryConfig = onOrders): HistoryDriver {
  const d = new HistoryDriver(config);
  assert.equal(d.start({ input: [encrypted('order 42')] }).rejection, null);
  return d;
}

const withDetails = (f: ReturnType<typeof failure>, details: Payload) => ({ ...f, details });
const lastEvent = <T extends HistoryEvent['attributes']['type']>(d: HistoryDriver, type: T) =>
  (d.events.filter((e): e is HistoryEvent<T> => e.attributes.type === type).at(-1))?.attributes;

const lastTaskFailure = (d: HistoryDriver) => (d.events.filter((e): e is HistoryEvent<'WorkflowTaskFailed'> => e.attributes.type === 'WorkflowTaskFailed').at(-1))?.attributes;

describe('codec-required task queues', () => {
  it('finds the first payload that is neither encrypted nor null, skipping headers, and names where it is', () => {
    const body = { header: { trace: json('t') }, input: [encrypted('a'), nullPayload, json('secret')] };
    assert.deepEqual(findPlaintextPayload(body), { path: 'input[2]', encoding: 'json/plain' });
    assert.equal(findPlaintextPayload({ input: [encrypted('a'), nullPayload], memo: { note: encrypted('b') } }), null);
    assert.deepEqual(findPlaintextPayload({ memo: { note: { metadata: {}, data: Buffer.from('x') } } }), { path: 'memo.note', encoding: 'no encoding' });
  });

  it('refuses a plaintext start with PlaintextPayloadRefused naming the queue, the namespace and the payload, and writes nothing', () => {
    const d = new HistoryDriver(onOrders);
    const refused = d.start({ input: [json({ name: 'Ada' })] }, { replyTo: 'r' });
    assert.equal(refused.rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.match(refused.rejection!.message, /^task queue orders of namespace default requires encrypted payloads \(codec-required\); StartWorkflowExecution of order-42: payload input\[0\] is json\/plain/);
    assert.equal(refused.replies[0]?.kind, 'Error');
    assert.equal(refused.replies[0]?.failure?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.equal(d.events.length, 0);
  });

  it('refuses a plaintext memo too, and accepts encrypted input with a null payload', () => {
    assert.match(new HistoryDriver(onOrders).start({ input: [encrypted('x')], memo: { customer: json('Ada') } }).rejection?.message ?? '', /payload memo\.customer is json\/plain/);
    assert.equal(new HistoryDriver(onOrders).start({ input: [encrypted('x'), nullPayload] }).rejection, null);
  });

  it('applies to the listed queues only, and to every queue of the namespace with *', () => {
    assert.equal(new HistoryDriver(guarded(['payments'])).start().rejection, null, 'orders is not listed');
    assert.equal(new HistoryDriver(guarded(['*'])).start().rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.equal(new HistoryDriver(defaultHistoryConfig).start().rejection, null, 'no guard by default');
  });

  it('refuses a plaintext signal-with-start, whether it starts the run or signals the open one', () => {
    const body = (signalInput: Payload[]) => ({ start: startBody({ input: [encrypted('x')] }), signalName: 'add', signalInput, signalHeader: {} });
    const fresh = new HistoryDriver(onOrders);
    assert.match(fresh.send('SignalWithStartWorkflowExecution', body([json('item')]), { replyTo: 'r' }).rejection?.message ?? '', /signalInput\[0\] is json\/plain/);
    const open = encryptedRun();
    assert.equal(open.send('SignalWithStartWorkflowExecution', body([json('item')])).rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.equal(open.send('SignalWithStartWorkflowExecution', body([encrypted('item')])).rejection, null);
  });

  it("refuses a plaintext signal or update to a run on the queue, by the run's queue", () => {
    const d = encryptedRun();
    const signal = (input: Payload[]) => d.send('SignalWorkflowExecution', { signalName: 'go', input, identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false }, { replyTo: 's' });
    assert.match(signal([json('Ada')]).rejection?.message ?? '', /signal go: payload \[0\] is json\/plain/);
    assert.equal(signal([encrypted('Ada')]).rejection, null);
    const update = d.send('UpdateWorkflowExecution', { request: { updateId: 'u1', identity: 'c', name: 'rename', header: {}, args: [json('Ada')] }, waitForStage: 'Completed' }, { replyTo: 'u' });
    assert.equal(update.rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
  });

  it('fails a workflow task that schedules an activity with plaintext input, naming the rule, and the retried task can complete', () => {
    const d = encryptedRun();
    d.completeWorkflowTask([scheduleActivity('charge-1', { input: [json({ card: '4111' })] })]);
    const failed = lastTaskFailure(d);
    assert.equal(failed?.cause, 'BadScheduleActivityAttributes');
    assert.equal(failed?.failure?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.match(failed?.failure?.message ?? '', /task queue orders of namespace default requires encrypted payloads \(codec-required\); ScheduleActivityTask command: payload input\[0\] is json\/plain/);
    assert.equal(d.state?.executionInfo.status, 'Running', 'the run goes on');
    assert.equal(d.tasks.filter((t) => t.type === 'ActivityTask').length, 0, 'nothing was scheduled');
    d.advance(60_000);
    d.completeWorkflowTask([scheduleActivity('charge-1', { input: [encrypted('4111')] })]);
    assert.equal(d.tasks.filter((t) => t.type === 'ActivityTask').length, 1, 'a worker with the codec schedules it');
  });

  it('checks where a command sends payloads: an activity or a child on a codec-required queue from a run on another queue', () => {
    const d = new HistoryDriver(guarded(['vault']));
    d.start();
    d.completeWorkflowTask([scheduleActivity('a', { taskQueue: 'vault', input: [json('x')] })]);
    assert.equal(lastTaskFailure(d)?.failure?.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.match(lastTaskFailure(d)?.failure?.message ?? '', /task queue vault/);
  });

  it('fails the task for a plaintext workflow result; a null result and marker details pass', () => {
    const d = encryptedRun();
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: json('done') }]);
    assert.equal(lastTaskFailure(d)?.cause, 'BadCompleteWorkflowExecutionAttributes');
    d.advance(60_000);
    d.completeWorkflowTask([
      { type: 'RecordMarker', markerName: 'sdk.patch', details: { patchId: [json('v2')] }, header: {}, failure: null },
      { type: 'CompleteWorkflowExecution', result: nullPayload },
    ]);
    assert.equal(d.state?.executionInfo.status, 'Completed');
  });

  it('fails an activity without retry when its result is plaintext, naming the rule', () => {
    const d = encryptedRun();
    d.completeWorkflowTask([scheduleActivity('charge-1', { input: [encrypted('4111')] })]);
    const scheduledEventId = d.events.find((e) => e.attributes.type === 'ActivityTaskScheduled')!.eventId;
    d.send('ActivityTaskStarted', { scheduledEventId, attempt: 1, identity: 'aw' });
    d.send('ActivityTaskCompleted', { scheduledEventId, attempt: 1, identity: 'aw', result: json('receipt') });
    const failed = d.events.find((e): e is HistoryEvent<'ActivityTaskFailed'> => e.attributes.type === 'ActivityTaskFailed')?.attributes;
    assert.equal(failed?.failure.code, PLAINTEXT_PAYLOAD_REFUSED);
    assert.equal(failed?.failure.nonRetryable, true);
    assert.equal(failed?.retryState, 'NonRetryableFailure');
    assert.match(failed?.failure.message ?? '', /the activity result: payload result is json\/plain/);
  });

  it('fails an activity whose heartbeat details are plaintext; encrypted ones are kept', () => {
    const d = encryptedRun();
    d.completeWorkflowTask([scheduleActivity('a', { input: [encrypted('x')] })]);
    const scheduledEventId = d.events.find((e) => e.attributes.type === 'ActivityTaskScheduled')!.eventId;
    d.send('ActivityTaskHeartbeat', { scheduledEventId, attempt: 1, identity: 'aw', details: encrypted('50%') });
    assert.equal(d.state?.pendingActivities[0]?.lastHeartbeatDetails?.data.toString(), 'sealed:50%');
    d.send('ActivityTaskHeartbeat', { scheduledEventId, attempt: 1, identity: 'aw', details: json('50%') });
    assert.ok(d.types().includes('ActivityTaskFailed'));
  });

  it("checks the workflow's data in the SDK's markers (a local activity's result, a side effect's value, a failure's details) and lets their bookkeeping keys pass", () => {
    const refusedPath = (command: WorkflowCommand) => {
      const d = encryptedRun();
      d.completeWorkflowTask([command]);
      const failed = lastTaskFailure(d);
      if (failed === undefined) return null;
      assert.equal(failed.cause, 'BadRecordMarkerAttributes');
      assert.equal(failed.failure?.code, PLAINTEXT_PAYLOAD_REFUSED);
      return /payload (\S+) is/.exec(failed.failure?.message ?? '')?.[1];
    };
    const base = { seq: 1, activityType: 'lookup', attempt: 2 };
    assert.equal(refusedPath(localActivityMarkerCommand({ ...base, kind: 'completed', result: json({ iban: 'DE89' }) })), 'details.result[0]');
    assert.equal(refusedPath(sideEffectMarkerCommand(3, json('a random id'))), 'details.value[0]');
    assert.equal(refusedPath(localActivityMarkerCommand({ ...base, kind: 'failed', failure: withDetails(failure('boom'), json('card 4111')), retryState: 'MaximumAttemptsReached' })), 'failure.details');
    assert.equal(refusedPath(localActivityMarkerCommand({ ...base, kind: 'completed', result: encrypted('DE89') })), null, 'seq, activityType and attempt are plain JSON bookkeeping');
    assert.equal(refusedPath(localActivityMarkerCommand({ ...base, kind: 'backoff', failure: failure('busy'), backoffMs: 5_000 })), null);
    assert.equal(refusedPath(localActivityMarkerCommand({ ...base, kind: 'failed', failure: failure('boom'), retryState: 'MaximumAttemptsReached' })), null);
    assert.equal(refusedPath(sideEffectMarkerCommand(3, encrypted('a random id'))), null);
    assert.equal(refusedPath(patchMarkerCommand({ patchId: 'v2', deprecated: true })), null, 'a patch marker is all bookkeeping');
    const ownMarker: WorkflowCommand = { type: 'RecordMarker', markerName: 'my-marker', details: { seq: [json('Ada')] }, header: { trace: json('t') }, failure: null };
    assert.equal(refusedPath(ownMarker), 'details.seq[0]', "the allow-list is per SDK marker: another marker's seq is data");
  });

  it('skips only the header fields of a command or request, not a memo entry or nested field named header', () => {
    assert.equal(findPlaintextPayload({ header: { trace: json('t') }, signalHeader: { trace: json('t') }, start: { header: { trace: json('t') } } }), null);
    assert.deepEqual(findPlaintextPayload({ memo: { header: json('Ada') } }), { path: 'memo.header', encoding: 'json/plain' });
    assert.deepEqual(findPlaintextPayload({ memo: { signalHeader: json('Ada') } }), { path: 'memo.signalHeader', encoding: 'json/plain' });
    assert.deepEqual(findPlaintextPayload({ start: { memo: { header: json('Ada') } } }), { path: 'start.memo.header', encoding: 'json/plain' });
    assert.match(new HistoryDriver(onOrders).start({ input: [encrypted('x')], memo: { header: json('Ada') } }).rejection?.message ?? '', /payload memo\.header is json\/plain/);
  });

  it('refuses a binary/null payload that carries data: only an absent value passes as null', () => {
    const smuggled: Payload = { metadata: { encoding: Buffer.from('binary/null') }, data: Buffer.from('Ada Lovelace') };
    assert.deepEqual(findPlaintextPayload({ input: [smuggled] }), { path: 'input[0]', encoding: 'binary/null' });
    assert.equal(new HistoryDriver(onOrders).start({ input: [smuggled] }).rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
  });

  it("records a child's plaintext result, failure or cancellation as the child failing with PlaintextPayloadRefused, for a parent on a codec-required queue", () => {
    const outcomes = [
      { status: 'Completed' as const, result: json('receipt'), failure: null, details: null, retryState: null },
      { status: 'Failed' as const, result: null, failure: withDetails(failure('declined'), json('card 4111')), details: null, retryState: 'NonRetryableFailure' as const },
      { status: 'Canceled' as const, result: null, failure: null, details: json('why'), retryState: null },
    ];
    for (const outcome of outcomes) {
      const parent = encryptedRun();
      parent.completeWorkflowTask([{
        type: 'StartChildWorkflowExecution', namespace: 'other', workflowId: 'child', workflowType: 'invoice', taskQueue: 'reports', input: [encrypted('1')],
        workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy: 'Abandon',
        workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {},
      }]);
      const initiatedEventId = parent.events.find((e) => e.attributes.type === 'StartChildWorkflowExecutionInitiated')!.eventId;
      parent.send('RecordChildExecutionCompleted', {
        initiatedEventId, namespace: 'other', workflowExecution: { workflowId: 'child', runId: 'run-c' }, workflowType: 'invoice', ...outcome,
      });
      const failed = lastEvent(parent, 'ChildWorkflowExecutionFailed');
      assert.equal(failed?.failure.code, PLAINTEXT_PAYLOAD_REFUSED, outcome.status);
      assert.equal(failed?.failure.nonRetryable, true);
      assert.equal(failed?.retryState, 'NonRetryableFailure');
      assert.match(failed?.failure.message ?? '', /^task queue orders of namespace default requires encrypted payloads \(codec-required\); the outcome \(\w+\) of child workflow child \(run run-c\): payload \w+/);
      const stored = JSON.stringify(parent.events, (_key, v: unknown) => ((v as { type?: string } | null)?.type === 'Buffer' ? Buffer.from((v as { data: number[] }).data).toString() : v));
      assert.ok(!/receipt|card 4111|"why"/.test(stored), `the plaintext of ${outcome.status} is not in the parent's history`);
    }
    const parent = encryptedRun();
    parent.completeWorkflowTask([{
      type: 'StartChildWorkflowExecution', namespace: null, workflowId: 'child', workflowType: 'invoice', taskQueue: 'orders', input: [encrypted('1')],
      workflowExecutionTimeoutMs: null, workflowRunTimeoutMs: null, workflowTaskTimeoutMs: null, parentClosePolicy: 'Abandon',
      workflowIdReusePolicy: 'AllowDuplicate', retryPolicy: null, cronSchedule: null, header: {}, memo: {}, searchAttributes: {},
    }]);
    const initiatedEventId = parent.events.find((e) => e.attributes.type === 'StartChildWorkflowExecutionInitiated')!.eventId;
    parent.send('RecordChildExecutionCompleted', {
      initiatedEventId, namespace: 'default', workflowExecution: { workflowId: 'child', runId: 'run-c' }, workflowType: 'invoice',
      status: 'Completed', result: encrypted('receipt'), failure: null, details: null, retryState: null,
    });
    assert.equal(lastEvent(parent, 'ChildWorkflowExecutionCompleted')?.result?.data.toString(), 'sealed:receipt', 'an encrypted result is recorded');
  });

  it('tells a workflow whose signal a codec-required target refused that the target refused it, not that it was not found', () => {
    const sender = new HistoryDriver(defaultHistoryConfig, 'sender');
    sender.start({ taskQueue: 'reports' });
    sender.completeWorkflowTask([{ type: 'SignalExternalWorkflowExecution', namespace: null, workflowId: 'order-42', runId: null, signalName: 'pay', input: [json('card 4111')], childWorkflowOnly: false, header: {} }]);
    const target = encryptedRun();
    const refused = target.receive(sender.outbox[0]!);
    assert.equal(refused.rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
    sender.receive(target.outbox.at(-1)!);
    assert.equal(lastEvent(sender, 'SignalExternalWorkflowExecutionFailed')?.cause, 'SignalCountLimitExceeded');
  });

  it("leaves the engine's internal scheduler queue out of *, and checks it when it is named", () => {
    const schedulerStart = { taskQueue: SCHEDULER_TASK_QUEUE, input: [json({ scheduleId: 's', schedule: {} })], memo: { workflowType: json('report') } };
    assert.equal(new HistoryDriver(guarded(['*'])).start(schedulerStart).rejection, null);
    assert.equal(new HistoryDriver(guarded([SCHEDULER_TASK_QUEUE])).start(schedulerStart).rejection?.code, PLAINTEXT_PAYLOAD_REFUSED);
  });
});
