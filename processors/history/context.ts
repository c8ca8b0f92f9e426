/**
 * The working context of one input: a private copy of the run's state that handlers change in
 * place, and the outputs they collect. `finish` turns it into a {@link Transition}.
 * @module
 */
import type { Command } from '../../topics/schemas/command/index.js';
import type { Failure, ReplyTo } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent, HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import type { ExecutionInfo, MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { HistoryConfig } from './config.js';
import { estimatedEventBytes } from './history-size.js';
import { cloneData, sameData } from './plain-data.js';
import type { ClosedRun, Rejection, TaskIntent, Transition } from './transition.js';
import { visibilityRowOf } from './visibility.js';

/** One input being applied. Handlers mutate `state` (a copy) and push outputs. */
export interface Ctx {
  readonly now: number;
  readonly config: HistoryConfig;
  /** The command being applied; null for a timer. */
  readonly command: Command | null;
  state: MutableStateSnapshot;
  readonly events: HistoryEvent[];
  readonly tasks: TaskIntent[];
  readonly commands: Command[];
  readonly replies: Reply[];
  visibilityChanged: boolean;
  closedRun: ClosedRun | null;
  rejection: Rejection | null;
  /** Ids of the ActivityTaskStarted events appended by this input, by scheduled event id. */
  readonly activityStartedIds: Map<number, number>;
  /** Ids of the ChildWorkflowExecutionStarted events appended by this input, by initiated event id. */
  readonly childStartedIds: Map<number, number>;
}

/** A context over a private copy of `state`. */
export function openContext(state: MutableStateSnapshot, now: number, config: HistoryConfig, command: Command | null): Ctx {
  return {
    now, config, command, state: cloneData(state), events: [], tasks: [], commands: [], replies: [], visibilityChanged: false,
    closedRun: null, rejection: null, activityStartedIds: new Map(), childStartedIds: new Map(),
  };
}

/** Refuses the input: whatever the handler did so far is discarded by {@link finish}. */
export function reject(ctx: Ctx, code: string, message: string): void {
  ctx.rejection = { code, message };
}

/** A failure record written by the engine itself. */
export function engineFailure(code: string, message: string, details: Failure['details'] = null): Failure {
  return { message, source: 'Logbook', stackTrace: '', code, nonRetryable: true, details, cause: null };
}

/** The Error reply for a refused command. */
export function errorReply(replyTo: ReplyTo, runId: string | null, rejection: Rejection): Reply {
  return {
    requestId: replyTo.requestId, kind: 'Error', runId, payload: null,
    failure: engineFailure(rejection.code, rejection.message), executionStatus: null,
  };
}

/** A transition that only refuses the input (and answers it when it asked for an answer). */
export function rejectionOnly(replyTo: ReplyTo | null, runId: string | null, rejection: Rejection): Transition {
  return {
    state: null, changed: false, events: [], tasks: [], commands: [], visibility: null, closedRun: null, rejection,
    replies: replyTo ? [errorReply(replyTo, runId, rejection)] : [],
  };
}

/** The transition of a finished context; `original` is the state it was opened on (null for a new workflow). */
export function finish(ctx: Ctx, original: MutableStateSnapshot | null): Transition {
  if (ctx.rejection) {
    return rejectionOnly(ctx.command?.replyTo ?? null, original?.executionInfo.runId ?? null, ctx.rejection);
  }
  const changed = original === null || !sameData(original, ctx.state);
  return {
    state: changed ? ctx.state : null,
    changed,
    events: ctx.events,
    tasks: ctx.tasks,
    commands: ctx.commands,
    replies: ctx.replies,
    visibility: ctx.visibilityChanged ? visibilityRowOf(ctx.state) : null,
    closedRun: ctx.closedRun,
    rejection: null,
  };
}

/**
 * Appends one event to the run's history with the next event id.
 *
 * An activity's closing event buffered with `startedEventId: 0` refers to the ActivityTaskStarted
 * buffered just before it (ids are assigned only here); it gets that event's id.
 * @throws Error if the id would not be above the run's last event id (stale state: a bug)
 */
export function appendEvent(ctx: Ctx, attributes: HistoryEventAttributes, eventTime: number = ctx.now): HistoryEvent {
  const info = ctx.state.executionInfo;
  const eventId = info.nextEventId;
  if (eventId <= info.lastEventId) {
    throw new Error(`history guard: event id ${eventId} of run ${info.runId} is not above its last event id ${info.lastEventId}`);
  }
  const resolved = resolveStartedEventId(ctx, attributes);
  if (resolved.type === 'ActivityTaskStarted') ctx.activityStartedIds.set(resolved.scheduledEventId, eventId);
  if (resolved.type === 'ChildWorkflowExecutionStarted') noteChildStarted(ctx, resolved.initiatedEventId, eventId);
  const event = eventOf(info, eventId, eventTime, resolved);
  info.lastEventId = eventId;
  info.nextEventId = eventId + 1;
  info.lastEventTime = Math.max(info.lastEventTime, eventTime);
  info.historySizeBytes += estimatedEventBytes(event);
  ctx.events.push(event);
  return event;
}

/** The event `eventId` of the run in `info`, as {@link appendEvent} writes it (also used to predict its size). */
export function eventOf(info: ExecutionInfo, eventId: number, eventTime: number, attributes: HistoryEventAttributes): HistoryEvent {
  return {
    namespace: info.namespace, workflowId: info.workflowId, runId: info.runId, workflowType: info.workflowType,
    taskQueue: info.taskQueue, eventId, eventTime, attributes,
  };
}

function resolveStartedEventId(ctx: Ctx, attributes: HistoryEventAttributes): HistoryEventAttributes {
  switch (attributes.type) {
    case 'ActivityTaskCompleted':
    case 'ActivityTaskFailed':
    case 'ActivityTaskTimedOut':
    case 'ActivityTaskCanceled': {
      if (attributes.startedEventId !== 0) return attributes;
      const startedEventId = ctx.activityStartedIds.get(attributes.scheduledEventId);
      if (startedEventId === undefined) {
        throw new Error(`activity ${attributes.scheduledEventId}: ${attributes.type} has no ActivityTaskStarted before it`);
      }
      return { ...attributes, startedEventId };
    }
    case 'ChildWorkflowExecutionCompleted':
    case 'ChildWorkflowExecutionFailed':
    case 'ChildWorkflowExecutionCanceled':
    case 'ChildWorkflowExecutionTerminated':
    case 'ChildWorkflowExecutionTimedOut': {
      if (attributes.startedEventId !== 0) return attributes;
      const startedEventId = ctx.childStartedIds.get(attributes.initiatedEventId);
      if (startedEventId === undefined) {
        throw new Error(`child ${attributes.initiatedEventId}: ${attributes.type} has no ChildWorkflowExecutionStarted before it`);
      }
      return { ...attributes, startedEventId };
    }
    default:
      return attributes;
  }
}

/**
 * A child's Started event gets its id only when appended (it may wait in the buffer): the pending
 * child and a closing event buffered behind it (`startedEventId: 0`) learn the id here.
 */
function noteChildStarted(ctx: Ctx, initiatedEventId: number, eventId: number): void {
  ctx.childStartedIds.set(initiatedEventId, eventId);
  const child = ctx.state.pendingChildren.find((p) => p.initiatedEventId === initiatedEventId);
  if (child) child.startedEventId = eventId;
}
