import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';

/**
 * The task's events, ending with its WorkflowTaskScheduled and WorkflowTaskStarted events, which the
 * engine writes only when the task completes. A transient retry (attempt ≥ 2) has no Scheduled
 * event in history yet; the worker synthesises it from the task with the time the engine will
 * record, so replay sees the same workflow time either way. WorkflowTaskStarted is synthesised
 * with the history facts the task carries (`suggestContinueAsNew`, size), the values the engine
 * records in it, so `workflowInfo()` reads the same live and on replay.
 */
export function withTaskEvents(task: WorkflowTask, identity: string): HistoryEvent[] {
  const envelope = { namespace: task.namespace, workflowId: task.workflowId, runId: task.runId, workflowType: task.workflowType, taskQueue: task.taskQueue };
  const events = [...task.events];
  if (task.scheduledEventId > task.lastEventId) {
    events.push({
      ...envelope,
      eventId: task.scheduledEventId,
      eventTime: task.scheduledTime,
      attributes: { type: 'WorkflowTaskScheduled', taskQueue: task.taskQueue, startToCloseTimeoutMs: task.startToCloseTimeoutMs, attempt: task.attempt },
    });
  }
  events.push({
    ...envelope,
    eventId: task.startedEventIdHint,
    eventTime: task.scheduledTime,
    attributes: {
      type: 'WorkflowTaskStarted', scheduledEventId: task.scheduledEventId, identity, requestId: '',
      historySizeBytes: task.historySizeBytes, suggestContinueAsNew: task.suggestContinueAsNew,
    },
  });
  return events;
}
