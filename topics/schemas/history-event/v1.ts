/**
 * HistoryEvent v1 — the value of `logbook.history`: one record per event, with the analyst
 * envelope (DESIGN.md §2) as top-level fields and the event's attributes as a union of one record
 * per event type (`logbook.<Type>EventAttributes`).
 *
 * In TypeScript the attributes are a discriminated union on `type`; `eventType` exists only in the
 * Avro record (for analysts) and is derived from `attributes.type` by the serde.
 * @module
 */
import { field, record, timestampMillis, type Tagged, type TaggedUnion } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';
import { activityTaskEventSchemas, type ActivityTaskEventAttributesMap } from './v1-activity-task-events.js';
import { childEventSchemas, type ChildEventAttributesMap } from './v1-child-events.js';
import { executionEventSchemas, type ExecutionEventAttributesMap } from './v1-execution-events.js';
import { externalEventSchemas, type ExternalEventAttributesMap } from './v1-external-events.js';
import { messageEventSchemas, type MessageEventAttributesMap } from './v1-message-events.js';
import { timerEventSchemas, type TimerEventAttributesMap } from './v1-timer-events.js';
import { workflowTaskEventSchemas, type WorkflowTaskEventAttributesMap } from './v1-workflow-task-events.js';

/** Event type → its attributes (without the `type` tag). Handy for mapped handler types. */
export interface HistoryEventAttributesMap
  extends ExecutionEventAttributesMap,
    WorkflowTaskEventAttributesMap,
    ActivityTaskEventAttributesMap,
    TimerEventAttributesMap,
    MessageEventAttributesMap,
    ChildEventAttributesMap,
    ExternalEventAttributesMap {}

/** Name of an event type, e.g. `ActivityTaskScheduled` (past tense, Temporal's names). */
export type HistoryEventType = keyof HistoryEventAttributesMap;

/** Every event type, as a const object (`HistoryEventType.TimerFired === 'TimerFired'`). */
export const HistoryEventType = {
  WorkflowExecutionStarted: 'WorkflowExecutionStarted',
  WorkflowExecutionCompleted: 'WorkflowExecutionCompleted',
  WorkflowExecutionFailed: 'WorkflowExecutionFailed',
  WorkflowExecutionTimedOut: 'WorkflowExecutionTimedOut',
  WorkflowExecutionContinuedAsNew: 'WorkflowExecutionContinuedAsNew',
  WorkflowExecutionCancelRequested: 'WorkflowExecutionCancelRequested',
  WorkflowExecutionCanceled: 'WorkflowExecutionCanceled',
  WorkflowExecutionTerminated: 'WorkflowExecutionTerminated',
  WorkflowTaskScheduled: 'WorkflowTaskScheduled',
  WorkflowTaskStarted: 'WorkflowTaskStarted',
  WorkflowTaskCompleted: 'WorkflowTaskCompleted',
  WorkflowTaskFailed: 'WorkflowTaskFailed',
  WorkflowTaskTimedOut: 'WorkflowTaskTimedOut',
  ActivityTaskScheduled: 'ActivityTaskScheduled',
  ActivityTaskStarted: 'ActivityTaskStarted',
  ActivityTaskCompleted: 'ActivityTaskCompleted',
  ActivityTaskFailed: 'ActivityTaskFailed',
  ActivityTaskTimedOut: 'ActivityTaskTimedOut',
  ActivityTaskCancelRequested: 'ActivityTaskCancelRequested',
  ActivityTaskCanceled: 'ActivityTaskCanceled',
  TimerStarted: 'TimerStarted',
  TimerFired: 'TimerFired',
  TimerCanceled: 'TimerCanceled',
  WorkflowExecutionSignaled: 'WorkflowExecutionSignaled',
  MarkerRecorded: 'MarkerRecorded',
  WorkflowExecutionUpdateAccepted: 'WorkflowExecutionUpdateAccepted',
  WorkflowExecutionUpdateCompleted: 'WorkflowExecutionUpdateCompleted',
  UpsertWorkflowSearchAttributes: 'UpsertWorkflowSearchAttributes',
  WorkflowPropertiesModified: 'WorkflowPropertiesModified',
  StartChildWorkflowExecutionInitiated: 'StartChildWorkflowExecutionInitiated',
  StartChildWorkflowExecutionFailed: 'StartChildWorkflowExecutionFailed',
  ChildWorkflowExecutionStarted: 'ChildWorkflowExecutionStarted',
  ChildWorkflowExecutionCompleted: 'ChildWorkflowExecutionCompleted',
  ChildWorkflowExecutionFailed: 'ChildWorkflowExecutionFailed',
  ChildWorkflowExecutionCanceled: 'ChildWorkflowExecutionCanceled',
  ChildWorkflowExecutionTimedOut: 'ChildWorkflowExecutionTimedOut',
  ChildWorkflowExecutionTerminated: 'ChildWorkflowExecutionTerminated',
  SignalExternalWorkflowExecutionInitiated: 'SignalExternalWorkflowExecutionInitiated',
  SignalExternalWorkflowExecutionFailed: 'SignalExternalWorkflowExecutionFailed',
  ExternalWorkflowExecutionSignaled: 'ExternalWorkflowExecutionSignaled',
  RequestCancelExternalWorkflowExecutionInitiated: 'RequestCancelExternalWorkflowExecutionInitiated',
  RequestCancelExternalWorkflowExecutionFailed: 'RequestCancelExternalWorkflowExecutionFailed',
  ExternalWorkflowExecutionCancelRequested: 'ExternalWorkflowExecutionCancelRequested',
} as const satisfies { [K in HistoryEventType]: K };

/** An event's attributes: `{ type: 'ActivityTaskScheduled', activityId, … }`. */
export type HistoryEventAttributes = TaggedUnion<HistoryEventAttributesMap>;

/** The attributes of one event type (distributes over a union of types). */
export type HistoryEventAttributesOf<K extends HistoryEventType> = K extends HistoryEventType
  ? Tagged<K, HistoryEventAttributesMap[K]>
  : never;

/**
 * One history event with its analyst envelope.
 *
 * @example
 * const e: HistoryEvent<'TimerFired'> = { namespace: 'default', workflowId: 'order-42', runId,
 *   workflowType: 'order', taskQueue: 'orders', eventId: 7, eventTime: 1700000000000,
 *   attributes: { type: 'TimerFired', timerId: '1', startedEventId: 5 } };
 */
export interface HistoryEvent<K extends HistoryEventType = HistoryEventType> {
  namespace: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  /** 1-based, contiguous within a run. */
  eventId: number;
  /** Epoch milliseconds (shard time when the event was recorded). */
  eventTime: number;
  attributes: HistoryEventAttributesOf<K>;
}

/** The attributes union of v1, in its frozen branch order (reused by snapshots). */
export const historyEventAttributesSchemaV1 = [
  ...executionEventSchemas,
  ...workflowTaskEventSchemas,
  ...activityTaskEventSchemas,
  ...timerEventSchemas,
  ...messageEventSchemas,
  ...childEventSchemas,
  ...externalEventSchemas,
] as const;

/** Avro schema of `logbook.HistoryEvent`, version 1. Frozen. */
export const historyEventSchemaV1 = defineSchema(
  record(
    'logbook.HistoryEvent',
    [
      field('namespace', 'string'),
      field('workflowId', 'string'),
      field('runId', 'string'),
      field('workflowType', 'string'),
      field('taskQueue', 'string'),
      field('eventId', 'long'),
      field('eventType', 'string', 'Same as the attributes branch name without the EventAttributes suffix.'),
      field('eventTime', timestampMillis),
      field('attributes', historyEventAttributesSchemaV1),
    ],
    'One event of a workflow run, with an envelope readable without joins.',
  ),
);
