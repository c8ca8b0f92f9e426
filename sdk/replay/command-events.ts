/**
 * Which event each workflow command becomes, and what identifies both, so a recorded event can be
 * compared with the command replayed code produces at the same position. Type plus identity is
 * compared (activity type and id, timer id, marker name…), never arguments or durations: those
 * may change without breaking replay, as in Temporal.
 * @module
 */
import type { HistoryEvent, HistoryEventAttributes, HistoryEventType } from '../../topics/schemas/history-event/index.js';
import type { WorkflowCommand, WorkflowCommandType } from '../../topics/schemas/command/v1-workflow-commands.js';
import { isEngineMarker } from '../../topics/schemas/history-event/engine-markers.js';
import { patchDetailsOf } from './patch-markers.js';
import { localActivitySeqOf } from './local-activity-markers.js';
import { sideEffectOf } from './side-effect-markers.js';

type CommandOf<K extends WorkflowCommandType> = Extract<WorkflowCommand, { type: K }>;

interface Rule<K extends WorkflowCommandType> {
  /** The event the engine records for the command; null = recorded as no event (skipped). */
  event: HistoryEventType | null;
  identity(command: CommandOf<K>): string;
}

// A mapped type: a new command type is a compile error until it gets a rule.
const RULES: { [K in WorkflowCommandType]: Rule<K> } = {
  ScheduleActivityTask: { event: 'ActivityTaskScheduled', identity: (c) => `activityType=${c.activityType}, activityId=${c.activityId}` },
  RequestCancelActivityTask: { event: 'ActivityTaskCancelRequested', identity: (c) => `scheduledEventId=${c.scheduledEventId}` },
  StartTimer: { event: 'TimerStarted', identity: (c) => `timerId=${c.timerId}` },
  CancelTimer: { event: 'TimerCanceled', identity: (c) => `timerId=${c.timerId}` },
  CompleteWorkflowExecution: { event: 'WorkflowExecutionCompleted', identity: () => '' },
  FailWorkflowExecution: { event: 'WorkflowExecutionFailed', identity: () => '' },
  CancelWorkflowExecution: { event: 'WorkflowExecutionCanceled', identity: () => '' },
  ContinueAsNewWorkflowExecution: { event: 'WorkflowExecutionContinuedAsNew', identity: (c) => `workflowType=${c.workflowType}` },
  StartChildWorkflowExecution: {
    event: 'StartChildWorkflowExecutionInitiated',
    identity: (c) => `workflowType=${c.workflowType}, workflowId=${c.workflowId}`,
  },
  SignalExternalWorkflowExecution: {
    event: 'SignalExternalWorkflowExecutionInitiated',
    identity: (c) => `workflowId=${c.workflowId}, signalName=${c.signalName}`,
  },
  RequestCancelExternalWorkflowExecution: {
    event: 'RequestCancelExternalWorkflowExecutionInitiated',
    identity: (c) => `workflowId=${c.workflowId}`,
  },
  RecordMarker: { event: 'MarkerRecorded', identity: (c) => markerIdentity(c.markerName, c.details) },
  UpsertWorkflowSearchAttributes: { event: 'UpsertWorkflowSearchAttributes', identity: () => '' },
  ModifyWorkflowProperties: { event: 'WorkflowPropertiesModified', identity: () => '' },
  // Update protocol messages are recorded as update events, not at the command's position.
  ProtocolMessage: { event: null, identity: (c) => `protocolInstanceId=${c.protocolInstanceId}` },
};

/** The event types that are recorded in place of a command (right after WorkflowTaskCompleted). */
export const COMMAND_EVENT_TYPES: ReadonlySet<HistoryEventType> = new Set(
  Object.values(RULES).flatMap((rule) => (rule.event === null ? [] : [rule.event])),
);

/**
 * True for an event written for a command of the preceding `WorkflowTaskCompleted`. Markers the
 * engine writes itself (the history-limit warning) answer no command and are not.
 */
export function isCommandEvent(event: HistoryEvent): boolean {
  const a = event.attributes;
  return COMMAND_EVENT_TYPES.has(a.type) && !(a.type === 'MarkerRecorded' && isEngineMarker(a.markerName));
}

/** True when the engine records the command as an event at its position. */
export function isRecordedAsEvent(command: WorkflowCommand): boolean {
  return ruleOf(command).event !== null;
}

/** Whether a recorded command event stands for this command (type and identity). */
export function commandMatchesEvent(command: WorkflowCommand, event: HistoryEvent): boolean {
  const a = event.attributes;
  // A retry or cron hand-over is recorded in place of the Fail (or, for cron, Complete) command that caused it.
  if (a.type === 'WorkflowExecutionContinuedAsNew' && a.initiator !== 'Workflow') {
    return command.type === (a.failure === null ? 'CompleteWorkflowExecution' : 'FailWorkflowExecution');
  }
  const rule = ruleOf(command);
  return rule.event === event.attributes.type && rule.identity(command) === eventIdentity(event.attributes);
}

/** `ScheduleActivityTask(activityType=charge, activityId=2)`. */
export function describeCommand(command: WorkflowCommand): string {
  const identity = ruleOf(command).identity(command);
  return identity === '' ? command.type : `${command.type}(${identity})`;
}

/** `ActivityTaskScheduled(activityType=charge, activityId=2)`. */
export function describeEvent(event: HistoryEvent): string {
  const identity = eventIdentity(event.attributes);
  return identity === '' ? event.attributes.type : `${event.attributes.type}(${identity})`;
}

function ruleOf(command: WorkflowCommand): Rule<WorkflowCommandType> {
  return RULES[command.type] as Rule<WorkflowCommandType>;
}

// The same identity string the rule builds for the command, read from the recorded event.
function eventIdentity(a: HistoryEventAttributes): string {
  switch (a.type) {
    case 'ActivityTaskScheduled':
      return `activityType=${a.activityType}, activityId=${a.activityId}`;
    case 'ActivityTaskCancelRequested':
      return `scheduledEventId=${a.scheduledEventId}`;
    case 'TimerStarted':
    case 'TimerCanceled':
      return `timerId=${a.timerId}`;
    case 'WorkflowExecutionContinuedAsNew':
      return `workflowType=${a.workflowType}`;
    case 'StartChildWorkflowExecutionInitiated':
      return `workflowType=${a.workflowType}, workflowId=${a.workflowId}`;
    case 'SignalExternalWorkflowExecutionInitiated':
      return `workflowId=${a.workflowExecution.workflowId}, signalName=${a.signalName}`;
    case 'RequestCancelExternalWorkflowExecutionInitiated':
      return `workflowId=${a.workflowExecution.workflowId}`;
    case 'MarkerRecorded':
      return markerIdentity(a.markerName, a.details);
    default:
      return '';
  }
}

// The SDK's markers are identified by their patch id or side-effect / local-activity number too: matched one by one.
function markerIdentity(markerName: string, details: Parameters<typeof patchDetailsOf>[1]): string {
  const patch = patchDetailsOf(markerName, details);
  if (patch !== null) return `markerName=${markerName}, patchId=${patch.patchId}`;
  const seq = sideEffectOf(markerName, details)?.seq ?? localActivitySeqOf(markerName, details);
  return seq === null ? `markerName=${markerName}` : `markerName=${markerName}, seq=${seq}`;
}
