/**
 * Engine settings the history state machine needs. The shard processor passes its own; tests and
 * callers that have none use {@link defaultHistoryConfig}.
 * @module
 */

/** Engine settings of the history state machine. */
export interface HistoryConfig {
  /** Workflow-task start-to-close timeout when a start does not set one (Temporal: 10 s). */
  readonly defaultWorkflowTaskTimeoutMs: number;
  /** Backoff before workflow-task attempt 2; it doubles per attempt after that. */
  readonly workflowTaskRetryInitialIntervalMs: number;
  /** Cap of the workflow-task retry backoff. */
  readonly maxWorkflowTaskBackoffMs: number;
  /** How many recent signal / cancel request ids a run remembers for deduplication. */
  readonly requestIdWindow: number;
  /** Most events a run buffers while a workflow task is in flight; more signals are refused. */
  readonly maxBufferedEvents: number;
}

/** The defaults: Temporal's values where Temporal has one. */
export const defaultHistoryConfig: HistoryConfig = Object.freeze({
  defaultWorkflowTaskTimeoutMs: 10_000,
  workflowTaskRetryInitialIntervalMs: 1000,
  maxWorkflowTaskBackoffMs: 60_000,
  requestIdWindow: 200,
  maxBufferedEvents: 1000,
});
