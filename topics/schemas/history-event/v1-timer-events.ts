/**
 * HistoryEvent v1 attributes: durable timers.
 * @module
 */
import { field, record } from '../avro-schema.js';

/** The workflow started a timer. */
export interface TimerStartedEventAttributes {
  /** The SDK's timer sequence number, as a string (Temporal's `timer_id`). */
  timerId: string;
  startToFireTimeoutMs: number;
  workflowTaskCompletedEventId: number;
}

/** The timer fired (never early; late after an outage). */
export interface TimerFiredEventAttributes {
  timerId: string;
  startedEventId: number;
}

/** The workflow cancelled the timer before it fired. */
export interface TimerCanceledEventAttributes {
  timerId: string;
  startedEventId: number;
  workflowTaskCompletedEventId: number;
  identity: string;
}

/** Tag → attributes of the events in this file. */
export interface TimerEventAttributesMap {
  TimerStarted: TimerStartedEventAttributes;
  TimerFired: TimerFiredEventAttributes;
  TimerCanceled: TimerCanceledEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const timerEventSchemas = [
  record('logbook.TimerStartedEventAttributes', [
    field('timerId', 'string'),
    field('startToFireTimeoutMs', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
  ]),
  record('logbook.TimerFiredEventAttributes', [field('timerId', 'string'), field('startedEventId', 'long')]),
  record('logbook.TimerCanceledEventAttributes', [
    field('timerId', 'string'),
    field('startedEventId', 'long'),
    field('workflowTaskCompletedEventId', 'long'),
    field('identity', 'string'),
  ]),
] as const;
