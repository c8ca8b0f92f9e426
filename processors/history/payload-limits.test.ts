import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Payload } from '../../topics/payload/payload.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { defaultHistoryConfig, defaultHistoryLimits, type HistoryConfig } from './config.js';
import { findOversizedPayload, PAYLOAD_LIMIT_IDENTITY, PAYLOAD_TOO_LARGE } from './payload-limits.js';
import { HistoryDriver, json, scheduleActivity } from './test-kit.js';

const LIMIT = 100;
const small: HistoryConfig = { ...defaultHistoryConfig, limits: { ...defaultHistoryLimits, maxPayloadBytes: LIMIT } };
const bytes = (n: number): Payload => ({ metadata: { encoding: Buffer.from('binary/plain') }, data: Buffer.alloc(n, 1) });

const signal = (d: HistoryDriver, input: Payload[]) =>
  d.send('SignalWorkflowExecution', { signalName: 'go', input, identity: 'client', header: {}, externalInitiator: null, childWorkflowOnly: false }, { replyTo: 'r' });

describe('payload size limit', () => {
  it('is 2 MiB by default, as Temporal\'s blob size limit', () => {
    assert.equal(defaultHistoryLimits.maxPayloadBytes, 2 * 1024 * 1024);
  });

  it('finds a payload over the limit at any depth and names where it is', () => {
    const command = { type: 'RecordMarker', details: { data: [bytes(10), bytes(LIMIT + 1)] } };
    assert.deepEqual(findOversizedPayload(command, LIMIT), { path: 'details.data[1]', bytes: LIMIT + 1 });
    assert.equal(findOversizedPayload({ input: [bytes(LIMIT)] }, LIMIT), null, 'exactly the limit passes');
  });

  it('an activity scheduled with an oversized argument fails the task with BadScheduleActivityAttributes and terminates the run', () => {
    const d = new HistoryDriver(small);
    d.start();
    d.completeWorkflowTask([scheduleActivity('1', { input: [bytes(LIMIT + 5)] })]);
    assert.deepEqual(d.types(), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskFailed', 'WorkflowExecutionTerminated']);
    const failed = d.events.find((e): e is HistoryEvent<'WorkflowTaskFailed'> => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.equal(failed.attributes.cause, 'BadScheduleActivityAttributes');
    assert.equal(failed.attributes.failure?.code, PAYLOAD_TOO_LARGE);
    assert.match(failed.attributes.failure?.message ?? '', /ScheduleActivityTask command: payload input\[0\] is 105 bytes, over the limit of 100 bytes/);
    const terminated = d.events.at(-1) as HistoryEvent<'WorkflowExecutionTerminated'>;
    assert.equal(terminated.attributes.identity, PAYLOAD_LIMIT_IDENTITY);
    assert.equal(d.state?.executionInfo.status, 'Terminated');
    assert.equal(d.tasks.filter((t) => t.type === 'ActivityTask').length, 0, 'nothing was scheduled');
  });

  it('a workflow completing with an oversized result is terminated with BadCompleteWorkflowExecutionAttributes', () => {
    const d = new HistoryDriver(small);
    d.start();
    d.completeWorkflowTask([{ type: 'CompleteWorkflowExecution', result: bytes(LIMIT * 2) }]);
    const failed = d.events.find((e): e is HistoryEvent<'WorkflowTaskFailed'> => e.attributes.type === 'WorkflowTaskFailed')!;
    assert.equal(failed.attributes.cause, 'BadCompleteWorkflowExecutionAttributes');
    assert.equal(d.state?.executionInfo.status, 'Terminated');
  });

  it('a start with an oversized argument is refused with InvalidArgument and nothing is written', () => {
    const d = new HistoryDriver(small);
    const transition = d.start({ input: [bytes(LIMIT + 1)] }, { replyTo: 'r' });
    assert.equal(transition.rejection?.code, 'InvalidArgument');
    assert.match(transition.rejection?.message ?? '', /payload input\[0\] is 101 bytes, over the limit of 100 bytes per payload/);
    assert.equal(d.events.length, 0);
    assert.equal(transition.replies[0]?.kind, 'Error');
  });

  it('a signal with an oversized argument is refused with InvalidArgument; a small one is delivered', () => {
    const d = new HistoryDriver(small);
    d.start();
    assert.equal(signal(d, [bytes(LIMIT + 1)]).rejection?.code, 'InvalidArgument');
    assert.equal(signal(d, [json('ok')]).rejection, null);
  });

  it('a namespace can have a limit of its own', () => {
    const config: HistoryConfig = { ...defaultHistoryConfig, namespaceLimits: { default: { maxPayloadBytes: LIMIT } } };
    assert.equal(new HistoryDriver(config).start({ input: [bytes(LIMIT + 1)] }).rejection?.code, 'InvalidArgument');
    assert.equal(new HistoryDriver(defaultHistoryConfig).start({ input: [bytes(LIMIT + 1)] }).rejection, null);
  });
});
