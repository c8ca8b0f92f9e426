/**
 * The replay engine (worker side of the workflow runtime): cached runs, the replayer for CI and a
 * builder of synthetic histories for tests.
 * @module
 */
export { bundleWorkflowCode, WorkflowBundleError, type BundleOptions, type WorkflowBundle } from '../workflow/bundle.js';
export {
  DeadlockError,
  EvictionRequiredError,
  HistoryShapeError,
  NonDeterminismError,
  WorkflowTaskFailedError,
  type NonDeterminismDetails,
  type WorkflowTaskFailureCause,
} from './errors.js';
export { failureFromError } from './conversions.js';
export { HistoryBuilder, type HistoryBuilderOptions } from './history-builder.js';
export { replayHistory, type ReplayError, type ReplayOptions } from './replay-history.js';
export { historyFromExport } from './history-export.js';
export { replayHistories, type HistoryReplayResult } from './replayer.js';
export {
  WorkflowRun,
  type QueryResult,
  type WorkflowLogger,
  type WorkflowRunIdentity,
  type WorkflowRunOptions,
  type WorkflowTaskResult,
} from './workflow-run.js';
