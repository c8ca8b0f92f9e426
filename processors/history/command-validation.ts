/**
 * Validation of the commands of a workflow-task completion, before anything is written
 * (Temporal's Bad…Attributes checks). A problem fails the workflow task, not the run.
 * @module
 */
import type { WorkflowCommand, WorkflowCommandAttributesMap, WorkflowCommandType } from '../../topics/schemas/command/index.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { Tagged } from '../../topics/schemas/avro-schema.js';
import { ENGINE_MARKER_PREFIX, isEngineMarker } from '../../topics/schemas/history-event/engine-markers.js';
import { workflowCommandProblem } from '../../topics/validation/index.js';
import { limitsFor } from './config.js';
import type { Ctx } from './context.js';
import { badAttributesCause } from './payload-limits.js';
import { retryPolicyProblem } from './retry-policy.js';
import { startChildProblem } from './child-validation.js';
import { protocolMessageProblem, updateStagesOf, type UpdateStages } from './update-validation.js';

/** Why a completion's commands cannot be applied. */
export interface CommandProblem {
  cause: WorkflowTaskFailedCause;
  /** The failure code recorded in WorkflowTaskFailed (the cause, or a more precise code such as `PendingActivitiesLimitExceeded`). */
  code: string;
  message: string;
}

/** What the state and the earlier commands of the same completion leave, as far as validation cares. */
interface Scan {
  /** Activity ids in use by pending or newly scheduled activities. */
  activityIds: Set<string>;
  /** Scheduled event ids a RequestCancelActivityTask may still name (pending, or closing events buffered). */
  cancelableActivities: Set<number>;
  /** Ids of started timers not canceled yet. */
  timerIds: Set<string>;
  /** Ids of timers that fired while the task ran (TimerFired buffered) and are not canceled yet. */
  firedTimerIds: Set<string>;
  /** Children pending or started by earlier commands of the completion. */
  pendingChildren: number;
  /** Stages of the updates in flight, moved on by the protocol messages seen so far. */
  updateStages: UpdateStages;
}

type Validator<K extends WorkflowCommandType> = (ctx: Ctx, scan: Scan, command: Tagged<K, WorkflowCommandAttributesMap[K]>) => CommandProblem | null;

const problem = (cause: WorkflowTaskFailedCause, message: string): CommandProblem => ({ cause, code: cause, message });
const negative = (...values: (number | null)[]): boolean => values.some((v) => v !== null && v < 0);

const scheduleActivity: Validator<'ScheduleActivityTask'> = (ctx, scan, c) => {
  const name = `activity '${c.activityId}' (${c.activityType})`;
  if (!c.activityId || !c.activityType) return problem('BadScheduleActivityAttributes', `${name}: activityId and activityType are required`);
  if (scan.activityIds.has(c.activityId)) return problem('ScheduleActivityDuplicateId', `${name}: activityId is already in use by a pending activity`);
  if (negative(c.scheduleToCloseTimeoutMs, c.scheduleToStartTimeoutMs, c.startToCloseTimeoutMs, c.heartbeatTimeoutMs)) {
    return problem('BadScheduleActivityAttributes', `${name}: timeouts must not be negative`);
  }
  if (!(c.startToCloseTimeoutMs ?? 0) && !(c.scheduleToCloseTimeoutMs ?? 0)) {
    return problem('BadScheduleActivityAttributes', `${name} needs a startToCloseTimeout or a scheduleToCloseTimeout`);
  }
  const policy = retryPolicyProblem(c.retryPolicy);
  if (policy) return problem('BadScheduleActivityAttributes', `${name}: invalid retry policy: ${policy}`);
  const limit = limitsFor(ctx.config, ctx.state.executionInfo.namespace).maxPendingActivities;
  if (scan.activityIds.size >= limit) {
    // Temporal's cause PendingActivitiesLimitExceeded is not in the v1 enum: the failure code names it.
    return { cause: 'BadScheduleActivityAttributes', code: 'PendingActivitiesLimitExceeded', message: `${name}: the run already has ${limit} pending activities, the limit; wait for some to finish` };
  }
  scan.activityIds.add(c.activityId);
  return null;
};

const continueAsNew: Validator<'ContinueAsNewWorkflowExecution'> = (_ctx, _scan, c) => {
  if (!c.workflowType) return problem('BadContinueAsNewAttributes', 'continue-as-new needs a workflowType');
  if (negative(c.workflowRunTimeoutMs, c.workflowTaskTimeoutMs, c.backoffStartIntervalMs)) {
    return problem('BadContinueAsNewAttributes', 'continue-as-new: timeouts and the backoff must not be negative');
  }
  const policy = retryPolicyProblem(c.retryPolicy);
  return policy ? problem('BadContinueAsNewAttributes', `continue-as-new: invalid retry policy: ${policy}`) : null;
};

const validators: { [K in WorkflowCommandType]: Validator<K> } = {
  ScheduleActivityTask: scheduleActivity,
  RequestCancelActivityTask: (_ctx, scan, c) =>
    scan.cancelableActivities.delete(c.scheduledEventId)
      ? null
      : problem('BadRequestCancelActivityAttributes', `no pending activity was scheduled by event ${c.scheduledEventId} (or it is canceled twice)`),
  StartTimer: (_ctx, scan, c) => {
    if (!c.timerId) return problem('BadStartTimerAttributes', 'timerId is required');
    if (!(c.startToFireTimeoutMs > 0)) return problem('BadStartTimerAttributes', `timer '${c.timerId}': duration must be > 0`);
    if (scan.timerIds.has(c.timerId)) return problem('StartTimerDuplicateId', `timer '${c.timerId}' is already started`);
    scan.timerIds.add(c.timerId);
    return null;
  },
  CancelTimer: (_ctx, scan, c) =>
    scan.timerIds.delete(c.timerId) || scan.firedTimerIds.delete(c.timerId)
      ? null
      : problem('BadCancelTimerAttributes', `no started timer '${c.timerId}'`),
  CompleteWorkflowExecution: () => null,
  FailWorkflowExecution: () => null,
  CancelWorkflowExecution: () => null,
  RecordMarker: (_ctx, _scan, c) => {
    if (!c.markerName) return problem('BadRecordMarkerAttributes', 'markerName is required');
    return isEngineMarker(c.markerName) ? problem('BadRecordMarkerAttributes', `marker '${c.markerName}': names starting with '${ENGINE_MARKER_PREFIX}' are the engine's`) : null;
  },
  UpsertWorkflowSearchAttributes: () => null,
  ModifyWorkflowProperties: () => null,
  ContinueAsNewWorkflowExecution: continueAsNew,
  StartChildWorkflowExecution: (ctx, scan, c) => {
    const found = startChildProblem(ctx, scan.pendingChildren, c);
    if (!found) scan.pendingChildren++;
    return found;
  },
  SignalExternalWorkflowExecution: (_ctx, _scan, c) =>
    !c.workflowId ? problem('BadSignalWorkflowExecutionAttributes', 'workflowId is required')
      : !c.signalName ? problem('BadSignalWorkflowExecutionAttributes', 'signalName is required') : null,
  RequestCancelExternalWorkflowExecution: (_ctx, _scan, c) =>
    !c.workflowId ? problem('BadRequestCancelExternalWorkflowExecutionAttributes', 'workflowId is required') : null,
  ProtocolMessage: (_ctx, scan, c) => {
    const found = protocolMessageProblem(scan.updateStages, c);
    return found ? problem('BadUpdateWorkflowExecutionMessage', found) : null;
  },
};

/**
 * A command that breaks a rule every client applies (`topics/validation`): a task queue or
 * namespace that cannot be part of a topic name, an id with control characters, a duration past
 * 100 years. Checked after the command's own validator, whose messages are more specific.
 */
function ruleProblem(command: WorkflowCommand): CommandProblem | null {
  const invalid = workflowCommandProblem(command);
  return invalid ? problem(badAttributesCause[command.type], invalid) : null;
}

/** The commands that close the run, with the cause used when one is misplaced. */
const closing: Partial<Record<WorkflowCommandType, WorkflowTaskFailedCause>> = {
  CompleteWorkflowExecution: 'BadCompleteWorkflowExecutionAttributes',
  FailWorkflowExecution: 'BadFailWorkflowExecutionAttributes',
  CancelWorkflowExecution: 'BadCancelWorkflowExecutionAttributes',
  ContinueAsNewWorkflowExecution: 'BadContinueAsNewAttributes',
};

/** True if the command closes the run. */
export function closesRun(command: WorkflowCommand): boolean {
  return closing[command.type] !== undefined;
}

/** The first problem among `commands`, in order, or null if all can be applied. */
export function validateCommands(ctx: Ctx, commands: readonly WorkflowCommand[]): CommandProblem | null {
  const state = ctx.state;
  const buffered = state.bufferedEvents.map((e) => e.attributes);
  const scan: Scan = {
    activityIds: new Set(state.pendingActivities.map((a) => a.activityId)),
    cancelableActivities: new Set([
      ...state.pendingActivities.map((a) => a.scheduledEventId),
      ...buffered.flatMap((a) => (a.type.startsWith('ActivityTask') && 'scheduledEventId' in a ? [a.scheduledEventId] : [])),
    ]),
    timerIds: new Set(state.pendingTimers.map((t) => t.timerId)),
    firedTimerIds: new Set(buffered.flatMap((a) => (a.type === 'TimerFired' ? [a.timerId] : []))),
    pendingChildren: state.pendingChildren.length,
    updateStages: updateStagesOf(state),
  };
  for (const [index, command] of commands.entries()) {
    const validate = validators[command.type] as Validator<WorkflowCommandType> | undefined;
    if (!validate) return problem('UnhandledCommand', `unknown workflow command ${String(command.type)}`);
    const found = validate(ctx, scan, command) ?? ruleProblem(command);
    if (found) return found;
    const cause = closing[command.type];
    if (cause && index < commands.length - 1) {
      return problem(cause, `${command.type} must be the last command; ${commands.length - 1 - index} more follow it`);
    }
  }
  return null;
}
