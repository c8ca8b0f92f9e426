/**
 * The events that answer a child workflow's start, as activation jobs: its start (or why it
 * could not start) and how it ended. A child's failure reaches the parent's code as the cause of
 * a `ChildWorkflowFailure`, built from the event the engine recorded.
 * @module
 */
import type { DataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { ActivationJob, FailureInfo } from '../workflow/bridge.js';
import { FailureCode } from '../workflow/errors.js';
import { decodeOptional, failureInfoFromFailure } from './conversions.js';

/** Event types that answer a `StartChildWorkflowExecutionInitiated` (by its `initiatedEventId`). */
export type ChildAnswerEvent = HistoryEvent<
  | 'StartChildWorkflowExecutionFailed'
  | 'ChildWorkflowExecutionStarted'
  | 'ChildWorkflowExecutionCompleted'
  | 'ChildWorkflowExecutionFailed'
  | 'ChildWorkflowExecutionCanceled'
  | 'ChildWorkflowExecutionTerminated'
  | 'ChildWorkflowExecutionTimedOut'
>;

const engineCause = (code: string, message: string, details: unknown[] = []): FailureInfo =>
  ({ message, code, stack: '', nonRetryable: true, details, cause: null });

/** The job an answer event becomes for child `seq`. */
export function childJobOf(event: ChildAnswerEvent, seq: number, converter: DataConverter): ActivationJob {
  const a = event.attributes;
  switch (a.type) {
    case 'ChildWorkflowExecutionStarted':
      return { type: 'resolveChildStart', seq, runId: a.workflowExecution.runId, failureCause: null };
    case 'StartChildWorkflowExecutionFailed':
      return { type: 'resolveChildStart', seq, runId: null, failureCause: a.cause };
    case 'ChildWorkflowExecutionCompleted':
      return { type: 'resolveChild', seq, resolution: { kind: 'completed', value: decodeOptional(converter, a.result) } };
  }
  const runId = a.workflowExecution.runId;
  switch (a.type) {
    case 'ChildWorkflowExecutionFailed':
      return { type: 'resolveChild', seq, resolution: { kind: 'failed', failure: failureInfoFromFailure(a.failure, converter), retryState: a.retryState, runId } };
    case 'ChildWorkflowExecutionCanceled': {
      const details = a.details === null ? [] : [decodeOptional(converter, a.details)];
      const failure = engineCause(FailureCode.Cancelled, 'Child Workflow execution cancelled', details);
      return { type: 'resolveChild', seq, resolution: { kind: 'failed', failure, retryState: 'CancelRequested', runId } };
    }
    case 'ChildWorkflowExecutionTerminated':
      return { type: 'resolveChild', seq, resolution: { kind: 'failed', failure: engineCause(FailureCode.Terminated, 'Child Workflow execution terminated'), retryState: null, runId } };
    case 'ChildWorkflowExecutionTimedOut': {
      const failure = { ...engineCause(FailureCode.Timeout, 'Child Workflow execution timed out'), timeoutType: 'StartToClose' };
      return { type: 'resolveChild', seq, resolution: { kind: 'failed', failure, retryState: a.retryState, runId } };
    }
  }
}
