/**
 * Command v2: the body that resets a run (Temporal's ResetWorkflowExecution). The shard's state
 * machine is pure and has no history reader, so the sender (the gateway, which owns a history
 * reader) puts the base run's events in the request; the shard checks they are the run's events
 * as of its current state before it builds the new run from them.
 * @module
 */
import { arrayOf, field, record, timestampMillis } from '../avro-schema.js';
import { historyEventAttributesSchemaV1, type HistoryEventAttributes } from '../history-event/v1.js';

/** One event of the base run, as its history holds it (namespace, workflow and run are the envelope's). */
export interface ResetBaseEvent {
  eventId: number;
  eventTime: number;
  attributes: HistoryEventAttributes;
}

/**
 * Reset the run `baseRunId` to a workflow task: a new run of the same workflow id gets the base
 * run's events up to that task's WorkflowTaskStarted, a WorkflowTaskFailed naming the reset, the
 * signals the base run received after the reset point and a new workflow task; the base run, if
 * still open, is terminated. The reply is a `StartAccepted` naming the new run.
 */
export interface ResetWorkflowExecutionRequest {
  /** The run to reset; it must be the workflow's current run. */
  baseRunId: string;
  /** A WorkflowTaskCompleted, WorkflowTaskFailed, WorkflowTaskTimedOut or WorkflowTaskStarted event of the base run. */
  workflowTaskEventId: number;
  reason: string;
  identity: string;
  /** The base run's last event id when `baseEvents` were read: the shard refuses the request if the run moved on. */
  baseLastEventId: number;
  /**
   * The base run's events 1..`workflowTaskEventId`, then its WorkflowExecutionSignaled events after
   * it and the outcomes (started, start failed, closed) of the children it initiated before the
   * reset point (re-applied to the new run).
   */
  baseEvents: ResetBaseEvent[];
}

/** Tag → body of the commands added in v2. */
export interface ResetRequestMap {
  ResetWorkflowExecution: ResetWorkflowExecutionRequest;
}

/** Avro records of the bodies added in v2, in frozen union order (after every v1 branch). */
export const resetRequestSchemas = [
  record('logbook.ResetWorkflowExecutionRequest', [
    field('baseRunId', 'string'),
    field('workflowTaskEventId', 'long'),
    field('reason', 'string'),
    field('identity', 'string'),
    field('baseLastEventId', 'long'),
    field(
      'baseEvents',
      arrayOf(
        record('logbook.ResetBaseEvent', [
          field('eventId', 'long'),
          field('eventTime', timestampMillis),
          field('attributes', historyEventAttributesSchemaV1),
        ]),
      ),
    ),
  ]),
] as const;
