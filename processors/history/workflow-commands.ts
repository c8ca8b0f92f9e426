/**
 * Applying the validated commands of a completed workflow task: one event per command, in
 * command order, each pointing at the WorkflowTaskCompleted event.
 * @module
 */
import { mergeSearchAttributes } from '../../topics/schemas/common/search-attribute-merge.js';
import type { WorkflowCommand, WorkflowCommandAttributesMap, WorkflowCommandType } from '../../topics/schemas/command/index.js';
import type { Tagged } from '../../topics/schemas/avro-schema.js';
import { appendEvent, engineFailure, type Ctx } from './context.js';
import { closeRun } from './close-run.js';
import { continueAsNew } from './continue-as-new.js';
import { requestCancelActivity } from './activity-lifecycle.js';
import { initiateCancelExternal, initiateSignalExternal } from './external-requests.js';
import { initiateChild } from './child-workflows.js';
import { scheduleActivity } from './activity-tasks.js';
import { failWorkflow } from './workflow-retry.js';
import { startNextCronRun } from './cron-runs.js';
import { cancelTimer, startTimer } from './user-timers.js';
import { applyProtocolMessage } from './updates.js';

/** The completion the commands came with. */
interface Completion {
  /** Id of its WorkflowTaskCompleted event. */
  completedEventId: number;
  /** The completing worker's identity. */
  identity: string;
}

/** Applies one command; returns true if it produced an event the workflow must be told about. */
type Apply<K extends WorkflowCommandType> = (ctx: Ctx, done: Completion, command: Tagged<K, WorkflowCommandAttributesMap[K]>) => boolean;

const appliers: { [K in WorkflowCommandType]: Apply<K> } = {
  ScheduleActivityTask: (ctx, done, c) => (scheduleActivity(ctx, c, done.completedEventId), false),
  RequestCancelActivityTask: (ctx, done, c) => requestCancelActivity(ctx, c.scheduledEventId, done.completedEventId, done.identity),
  StartTimer: (ctx, done, c) => (startTimer(ctx, c.timerId, c.startToFireTimeoutMs, done.completedEventId), false),
  CancelTimer: (ctx, done, c) => (cancelTimer(ctx, c.timerId, done.completedEventId, done.identity), false),
  CompleteWorkflowExecution: (ctx, done, c) => {
    if (startNextCronRun(ctx, { result: c.result, failure: null, completedEventId: done.completedEventId })) return false;
    appendEvent(ctx, { type: 'WorkflowExecutionCompleted', result: c.result, workflowTaskCompletedEventId: done.completedEventId, newExecutionRunId: null });
    closeRun(ctx, { status: 'Completed', result: c.result, failure: null });
    return false;
  },
  FailWorkflowExecution: (ctx, done, c) => (failWorkflow(ctx, c.failure, done.completedEventId), false),
  CancelWorkflowExecution: (ctx, done, c) => {
    appendEvent(ctx, { type: 'WorkflowExecutionCanceled', workflowTaskCompletedEventId: done.completedEventId, details: c.details });
    closeRun(ctx, { status: 'Canceled', result: null, failure: engineFailure('Canceled', 'workflow canceled', c.details) });
    return false;
  },
  RecordMarker: (ctx, done, c) => {
    appendEvent(ctx, {
      type: 'MarkerRecorded', markerName: c.markerName, details: c.details, workflowTaskCompletedEventId: done.completedEventId,
      header: c.header, failure: c.failure,
    });
    return false;
  },
  UpsertWorkflowSearchAttributes: (ctx, done, c) => {
    appendEvent(ctx, { type: 'UpsertWorkflowSearchAttributes', workflowTaskCompletedEventId: done.completedEventId, searchAttributes: c.searchAttributes });
    ctx.state.searchAttributes = mergeSearchAttributes(ctx.state.searchAttributes, c.searchAttributes);
    ctx.visibilityChanged = true;
    return false;
  },
  ModifyWorkflowProperties: (ctx, done, c) => {
    appendEvent(ctx, { type: 'WorkflowPropertiesModified', workflowTaskCompletedEventId: done.completedEventId, upsertedMemo: c.upsertedMemo });
    ctx.state.memo = { ...ctx.state.memo, ...c.upsertedMemo };
    ctx.visibilityChanged = true;
    return false;
  },
  ContinueAsNewWorkflowExecution: (ctx, done, c) => (continueAsNew(ctx, c, done), false),
  StartChildWorkflowExecution: (ctx, done, c) => (initiateChild(ctx, c, done.completedEventId, done.identity), false),
  SignalExternalWorkflowExecution: (ctx, done, c) => (initiateSignalExternal(ctx, c, done.completedEventId, done.identity), false),
  RequestCancelExternalWorkflowExecution: (ctx, done, c) => (initiateCancelExternal(ctx, c, done.completedEventId, done.identity), false),
  ProtocolMessage: (ctx, done, c) => (applyProtocolMessage(ctx, c, done.identity), false),
};

/**
 * Applies the commands in order; returns true if one of them produced an event the workflow has
 * not seen yet (an activity canceled before it was claimed), so a new workflow task is needed.
 */
export function applyWorkflowCommands(ctx: Ctx, commands: readonly WorkflowCommand[], done: Completion): boolean {
  let needsWorkflowTask = false;
  for (const command of commands) {
    const apply = appliers[command.type] as Apply<WorkflowCommandType>;
    if (apply(ctx, done, command)) needsWorkflowTask = true;
  }
  return needsWorkflowTask;
}
