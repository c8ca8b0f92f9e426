/**
 * The history state machine: Temporal's semantics as a pure function. No I/O, no clock, no
 * randomness — `now` is the shard time the processor passes in, ids that must look random are
 * hashes of ids in the input.
 *
 * The processor calls {@link applyCommand} for each command and {@link applyTimer} for each due
 * entry of its timer index, which it derives from every stored snapshot with {@link timersOf}.
 * @module
 */
export { applyCommand } from './apply-command.js';
export { requestedRunIdOf, type InputFacts } from './run-id-reuse.js';
export { DEFAULT_RETENTION_MS, defaultHistoryConfig, defaultHistoryLimits, guardsFor, limitsFor, retentionFor, type HistoryConfig, type HistoryLimits, type NamespaceGuards } from './config.js';
export { retentionTimersOf } from './retention.js';
export { applyTimer, timersOf } from './timers.js';
export { TimerKind, type TimerRef } from './timer-ref.js';
export {
  RejectionCode,
  type ActivityTaskIntent,
  type CancelActivityIntent,
  type ClosedRun,
  type Rejection,
  type TaskIntent,
  type PurgedRun,
  type Transition,
  type WorkflowTaskIntent,
} from './transition.js';
export { errorReply } from './context.js';
export { prngSeedOf } from './deterministic-seed.js';
export { resetPointOf, RESET_EVENT_TYPES, type ResetPoint } from './reset-point.js';
export { isReappliedChildOutcome } from './reset-children.js';
