import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mutableStateSnapshotCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { applyInput, ScenarioRunner, type Action, type CommandSpec } from './scenario-kit.js';
import type { Transition } from './transition.js';

const timeout = fc.option(fc.integer({ min: 500, max: 20_000 }), { nil: null, freq: 3 });

const commandSpec: fc.Arbitrary<CommandSpec> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('activity' as const), startToClose: timeout, scheduleToClose: timeout, scheduleToStart: timeout, heartbeat: timeout, maxAttempts: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('timer' as const), ms: fc.integer({ min: 1, max: 30_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelTimer' as const), pick: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelActivity' as const), pick: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('marker' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), how: fc.constantFrom('complete' as const, 'fail' as const, 'cancel' as const, 'continueAsNew' as const) }) },
);

/** Random scenarios: mostly workflow-task and activity traffic, signals and time passing. */
export const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('start' as const), conflict: fc.constantFrom('Fail' as const, 'UseExisting' as const, 'TerminateExisting' as const) }) },
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('signal' as const), repeatLast: fc.boolean() }) },
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('claimWorkflowTask' as const) }) },
  { weight: 15, arbitrary: fc.record({ kind: fc.constant('completeWorkflowTask' as const), commands: fc.array(commandSpec, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('failWorkflowTask' as const) }) },
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('activity' as const), pick: fc.nat(5), what: fc.constantFrom('claim' as const, 'heartbeat' as const, 'complete' as const, 'fail' as const, 'failFinal' as const, 'canceled' as const) }) },
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancelRequest' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('terminate' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('await' as const), followRuns: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('stale' as const) }) },
);

/** A scenario always starts with a start. */
export const scenario = fc.array(action, { minLength: 10, maxLength: 80 }).map((rest): Action[] => [{ kind: 'start', conflict: 'Fail' }, ...rest]);

const serde = new SingleObjectSerde();

/** Freezes plain data deeply (byte buffers cannot be frozen and are never written). */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || Object.isFrozen(value)) return value;
  for (const item of Object.values(value)) deepFreeze(item);
  return Object.freeze(value);
}
const throughAvro = (state: MutableStateSnapshot): MutableStateSnapshot =>
  serde.decodeSync(mutableStateSnapshotCodec, serde.encodeSync(mutableStateSnapshotCodec, state));

describe('replay equivalence (property)', () => {
  it('gives the same events, tasks, replies and final state whether inputs are applied in one go or in chunks with the state stored through Avro in between, never mutating its input', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }), (actions, cuts) => {
        const oneGo = new ScenarioRunner().run(actions);
        let state: MutableStateSnapshot | null = null;
        const chunked: Transition[] = [];
        oneGo.inputs.forEach((input, i) => {
          // Frozen: a machine that wrote into its input state would throw here.
          const transition = applyInput(state && deepFreeze(state), input);
          chunked.push(transition);
          if (transition.changed) state = transition.state;
          // A chunk boundary: the processor stores the snapshot and a later batch decodes it.
          if (cuts[i % cuts.length] && state) state = throughAvro(state);
        });
        assert.deepStrictEqual(chunked, oneGo.transitions);
        assert.deepStrictEqual(state, oneGo.state);
      }),
      { numRuns: 150 },
    );
  });

  it('writes each run a contiguous history from event 1, and every state survives Avro unchanged', () => {
    fc.assert(
      fc.property(scenario, (actions) => {
        const runner = new ScenarioRunner().run(actions);
        const lastIds = new Map<string, number>();
        for (const transition of runner.transitions) {
          for (const event of transition.events) {
            assert.equal(event.eventId, (lastIds.get(event.runId) ?? 0) + 1, `run ${event.runId}: ids are contiguous`);
            lastIds.set(event.runId, event.eventId);
          }
          if (transition.state) assert.deepStrictEqual(throughAvro(transition.state), transition.state);
          if (transition.rejection) assert.deepEqual([transition.events, transition.state], [[], null]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
