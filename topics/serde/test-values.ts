/**
 * Small typed values for serde unit tests (not golden fixtures; those live in topics/schemas).
 * @module
 */
import { makePayload } from '../payload/payload.js';
import type { Command } from '../schemas/command/index.js';
import type { HistoryEvent } from '../schemas/history-event/index.js';

/** A TimerFired event of a made-up run. */
export const timerFiredEvent: HistoryEvent<'TimerFired'> = {
  namespace: 'default',
  workflowId: 'serde-test',
  runId: 'run-1',
  workflowType: 'test',
  taskQueue: 'q',
  eventId: 6,
  eventTime: 1_700_000_000_000,
  attributes: { type: 'TimerFired', timerId: '1', startedEventId: 5 },
};

/** An ActivityTaskCompleted command whose result has the given data. */
export function activityCompletedCommand(data: Buffer): Command<'ActivityTaskCompleted'> {
  return {
    requestId: 'req-1',
    namespace: 'default',
    workflowId: 'serde-test',
    runId: 'run-1',
    replyTo: null,
    body: {
      type: 'ActivityTaskCompleted',
      scheduledEventId: 5,
      attempt: 1,
      identity: 'w',
      result: makePayload('json/plain', data),
    },
  };
}
