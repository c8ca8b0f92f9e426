/**
 * `logbook/common`: what workflows, activities and clients share, named as in Temporal's
 * `@temporalio/common` — the failure classes (one class per kind, so `instanceof` works on the
 * client as in workflow code) and the workflow id policies.
 * @module
 */
export {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  ChildWorkflowFailure,
  DeterminismViolationError,
  IllegalStateError,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailure,
  WorkflowFailure as TemporalFailure,
  type ApplicationFailureOptions,
  type ChildWorkflowExecution,
  type TimeoutType,
} from '../workflow/errors.js';
export type { Duration } from '../workflow/duration.js';
export { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from './workflow-id-policies.js';
export type { LogEntry, Logger, LogLevel, LogMetadata } from './logger.js';
export {
  defineSearchAttributeKey,
  SearchAttributeType,
  TypedSearchAttributes,
  type SearchAttributeKey,
  type SearchAttributePair,
  type SearchAttributeTypeValues,
} from './typed-search-attributes.js';
