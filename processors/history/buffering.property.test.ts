import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import { HistoryDriver, json } from './test-kit.js';

type Step =
  | { kind: 'signal' }
  | { kind: 'claim' }
  | { kind: 'complete'; commands: ('timer' | 'marker' | 'close')[] }
  | { kind: 'fail' }
  | { kind: 'advance'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'signal' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'claim' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('complete' as const), commands: fc.array(fc.constantFrom('timer' as const, 'marker' as const, 'close' as const), { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 20_000 }) }) },
);

const toCommand = (c: 'timer' | 'marker' | 'close', i: number): WorkflowCommand =>
  c === 'timer' ? { type: 'StartTimer', timerId: `t${i}`, startToFireTimeoutMs: 5000 }
    : c === 'marker' ? { type: 'RecordMarker', markerName: 'm', details: {}, header: {}, failure: null }
      : { type: 'CompleteWorkflowExecution', result: null };

describe('signals during a workflow task (property)', () => {
  it('appear after the task ends — after its completion and command events — in arrival order', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const d = new HistoryDriver();
        d.start();
        const arrived: string[] = [];
        let n = 0;
        for (const s of steps) {
          if (d.state!.executionInfo.status !== 'Running') break;
          const task = d.state!.pendingWorkflowTask;
          const ref = task && d.state!.workflowTaskDispatched ? { scheduledEventId: task.scheduledEventId, attempt: task.attempt, identity: 'w' } : null;
          if (s.kind === 'signal') {
            const name = `s${++n}`;
            const inFlight = task !== null;
            const t = d.send('SignalWorkflowExecution', { signalName: name, input: [json(n)], identity: 'c', header: {}, externalInitiator: null, childWorkflowOnly: false });
            arrived.push(name);
            const types = t.events.map((e) => e.attributes.type);
            // Buffered behind an in-flight task; otherwise appended at once with a new task.
            assert.deepEqual(types, inFlight ? [] : ['WorkflowExecutionSignaled', 'WorkflowTaskScheduled']);
          } else if (s.kind === 'claim' && ref) {
            d.send('WorkflowTaskStarted', ref);
          } else if (s.kind === 'complete' && ref) {
            const buffered = d.state!.bufferedEvents.filter((e) => e.attributes.type === 'WorkflowExecutionSignaled').length;
            const t = d.send('WorkflowTaskCompleted', { ...ref, commands: s.commands.map(toCommand), sdkFlags: [], sdkName: null, sdkVersion: null });
            const types = t.events.map((e) => e.attributes.type);
            const firstSignal = types.indexOf('WorkflowExecutionSignaled');
            if (buffered > 0) {
              assert.equal(types.filter((x) => x === 'WorkflowExecutionSignaled').length, buffered, 'every buffered signal is appended');
              const end = Math.max(types.lastIndexOf('WorkflowTaskCompleted'), types.lastIndexOf('WorkflowTaskFailed'), types.lastIndexOf('TimerStarted'), types.lastIndexOf('MarkerRecorded'));
              assert.ok(firstSignal > end, `signals after the task's own events: ${types.join()}`);
              assert.ok(!types.includes('WorkflowExecutionCompleted'), 'the run cannot close over buffered signals');
            }
          } else if (s.kind === 'fail' && ref) {
            d.send('WorkflowTaskFailed', { ...ref, cause: 'NonDeterministicError', failure: null });
            assert.deepEqual(d.state!.bufferedEvents, []);
          } else if (s.kind === 'advance') {
            d.advance(s.ms);
          }
        }
        const delivered = d.events.flatMap((e) => (e.attributes.type === 'WorkflowExecutionSignaled' ? [e.attributes.signalName] : []));
        const stillBuffered = d.state!.bufferedEvents.flatMap((e) => (e.attributes.type === 'WorkflowExecutionSignaled' ? [e.attributes.signalName] : []));
        assert.deepEqual([...delivered, ...stillBuffered], arrived, 'arrival order');
      }),
      { numRuns: 200 },
    );
  });
});
