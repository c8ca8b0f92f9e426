import { encodeActivityTaskToken } from '../../topics/activity-task-token.js';
import { LogbookError } from '../../topics/errors.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import type { ActivityInfo } from './activity-context.js';
import type { ActivityFunction } from './activity-worker.js';

/**
 * The registered function of the task's activity type.
 * @throws LogbookError `ActivityTypeNotFound` naming the type, the queue and the types the worker has
 */
export function activityFunctionOf(activities: Readonly<Record<string, ActivityFunction>>, task: ActivityTask): ActivityFunction {
  const fn = activities[task.activityType];
  if (fn) return fn;
  const known = Object.keys(activities).join(', ');
  throw new LogbookError('ActivityTypeNotFound', `activity type '${task.activityType}' is not registered on task queue ${task.taskQueue} (known: ${known})`);
}

/** What `activityInfo()` tells the attempt of `task` that starts now (Temporal's fields plus Logbook's). */
export function activityInfoOf(task: ActivityTask, converter: DataConverter): ActivityInfo {
  const taskToken = encodeActivityTaskToken(task);
  return {
    namespace: task.namespace,
    workflowId: task.workflowId,
    runId: task.runId,
    workflowType: task.workflowType,
    activityId: task.activityId,
    activityType: task.activityType,
    taskQueue: task.taskQueue,
    attempt: task.attempt,
    idempotencyKey: task.idempotencyKey,
    heartbeatDetails: task.heartbeatDetails ? converter.fromPayload(task.heartbeatDetails) : undefined,
    workflowExecution: { workflowId: task.workflowId, runId: task.runId },
    workflowNamespace: task.namespace,
    activityNamespace: task.namespace,
    isLocal: false,
    startToCloseTimeoutMs: task.startToCloseTimeoutMs ?? task.scheduleToCloseTimeoutMs ?? 0,
    scheduleToCloseTimeoutMs: task.scheduleToCloseTimeoutMs ?? undefined,
    heartbeatTimeoutMs: task.heartbeatTimeoutMs ?? undefined,
    scheduledTimestampMs: task.scheduledTime,
    currentAttemptScheduledTimestampMs: task.currentAttemptScheduledTime,
    startedTimestampMs: Date.now(),
    taskToken,
    base64TaskToken: Buffer.from(taskToken).toString('base64'),
  };
}
