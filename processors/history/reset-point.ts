/**
 * Where a reset cuts a run's history: the workflow task named by the chosen event, and the id of
 * that task's WorkflowTaskStarted, the last event the new run keeps (Temporal's reset point).
 * Shared by the state machine (authoritative) and the gateway (to answer 400 before sending).
 * @module
 */
import type { HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';

/** The workflow task a reset goes back to. */
export interface ResetPoint {
  /** The task's WorkflowTaskScheduled event. */
  scheduledEventId: number;
  /** The task's WorkflowTaskStarted event: the new run keeps events 1..startedEventId. */
  startedEventId: number;
}

/** The event types a reset may name (Temporal: the events that finish a workflow task, or its start). */
export const RESET_EVENT_TYPES = ['WorkflowTaskCompleted', 'WorkflowTaskFailed', 'WorkflowTaskTimedOut', 'WorkflowTaskStarted'] as const;

/**
 * The reset point named by event `eventId`, or why it cannot be one (a message for a 400).
 * `events` must hold the event and, for a WorkflowTaskStarted, need hold nothing else.
 */
export function resetPointOf(events: readonly { eventId: number; attributes: HistoryEventAttributes }[], eventId: number): ResetPoint | { problem: string } {
  const event = events.find((e) => e.eventId === eventId);
  if (!event) return { problem: `event ${eventId} is not in the run's history` };
  const a = event.attributes;
  switch (a.type) {
    case 'WorkflowTaskStarted':
      return { scheduledEventId: a.scheduledEventId, startedEventId: eventId };
    case 'WorkflowTaskCompleted':
    case 'WorkflowTaskFailed':
      return { scheduledEventId: a.scheduledEventId, startedEventId: a.startedEventId };
    case 'WorkflowTaskTimedOut':
      if (a.startedEventId === null) return { problem: `event ${eventId} is a WorkflowTaskTimedOut of a task that never started; name a task that started` };
      return { scheduledEventId: a.scheduledEventId, startedEventId: a.startedEventId };
    default:
      return { problem: `event ${eventId} is a ${a.type}, not a workflow task event: a reset names a ${RESET_EVENT_TYPES.join(', ')} event` };
  }
}
