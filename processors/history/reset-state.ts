/**
 * The mutable state of a reset's new run, rebuilt from the base run's events up to the reset
 * point (pure: a fold over the events). What was in flight at that point is in flight again:
 * activities scheduled and not closed (sent again from attempt 1), timers started and neither
 * fired nor cancelled (with their original expiry), the cancel request, search attributes and memo
 * as upserted, the children initiated and not closed (`reset-children.ts`), the updates accepted
 * and not completed (`reset-updates.ts`; completed ones keep their record). Event counters and the
 * history size start at zero: the caller appends the kept events to the new run one by one, which
 * counts them.
 * @module
 */
import { mergeSearchAttributes } from '../../topics/schemas/common/search-attribute-merge.js';
import type { ResetBaseEvent } from '../../topics/schemas/command/index.js';
import { HISTORY_LIMIT_WARNING_MARKER } from '../../topics/schemas/history-event/engine-markers.js';
import type { HistoryEventAttributesOf } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot, PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { unclaimedCancelDeadline } from './activity-tasks.js';
import { cloneData } from './plain-data.js';
import { foldChildEvent, markInheritedChildren } from './reset-children.js';
import { foldUpdateEvent } from './reset-updates.js';

/** What the new run keeps of the base run, and when it starts. */
export interface ResetStateInput {
  /** The base run's state (identity, chain, request-id window). */
  base: MutableStateSnapshot;
  /** The base run's events 1..reset point, in order. */
  kept: readonly ResetBaseEvent[];
  newRunId: string;
  now: number;
  /** `HistoryConfig.unclaimedActivityCancelGraceMs`. */
  unclaimedCancelGraceMs: number;
}

/** Why the new run cannot be built from the kept events. */
export interface ResetStateProblem {
  code: 'InvalidArgument';
  message: string;
}

type Started = HistoryEventAttributesOf<'WorkflowExecutionStarted'>;

/** The new run's state, or why the reset point cannot be used. */
export function resetRunState(input: ResetStateInput): MutableStateSnapshot | ResetStateProblem {
  const first = input.kept[0]?.attributes;
  if (first?.type !== 'WorkflowExecutionStarted') return { code: 'InvalidArgument', message: 'the base history does not begin with WorkflowExecutionStarted' };
  const state = initialState(input, first);
  for (const event of input.kept) foldEvent(state, event, input.now);
  // An activity still asked to cancel gets a new attempt, dispatched unclaimed: it is cancelled
  // unless a worker that runs it claims or answers it within the grace.
  for (const activity of state.pendingActivities) {
    if (activity.cancelRequested) state.activityCancelDeadlines.push(unclaimedCancelDeadline(activity, input.now, input.unclaimedCancelGraceMs));
  }
  markInheritedChildren(input.base, state);
  const external = [...state.pendingSignalExternals, ...state.pendingCancelExternals][0];
  if (external) {
    return { code: 'InvalidArgument', message: `at the reset point the run waits for the answer to its request to workflow ${external.workflowId} (event ${external.initiatedEventId}); reset to a workflow task before that request or after its answer` };
  }
  return state;
}

function initialState(input: ResetStateInput, started: Started): MutableStateSnapshot {
  const base = input.base.executionInfo;
  const now = input.now;
  const runDeadline = started.workflowRunTimeoutMs === null ? null : now + started.workflowRunTimeoutMs;
  const chainDeadline = started.workflowExecutionExpirationTime;
  return {
    executionInfo: {
      namespace: base.namespace, workflowId: base.workflowId, runId: input.newRunId, workflowType: started.workflowType,
      taskQueue: started.taskQueue, status: 'Running', startTime: now, executionTime: now, closeTime: null,
      workflowExecutionTimeoutMs: started.workflowExecutionTimeoutMs, workflowRunTimeoutMs: started.workflowRunTimeoutMs,
      workflowTaskTimeoutMs: started.workflowTaskTimeoutMs, workflowExecutionExpirationTime: chainDeadline,
      workflowRunExpirationTime: runDeadline === null ? chainDeadline : chainDeadline === null ? runDeadline : Math.min(runDeadline, chainDeadline),
      lastEventId: 0, nextEventId: 1, lastEventTime: now, lastWorkflowTaskCompletedEventId: null,
      firstExecutionRunId: base.firstExecutionRunId, parent: base.parent, attempt: base.attempt, retryPolicy: started.retryPolicy,
      cronSchedule: base.cronSchedule, cancelRequested: false, historySizeBytes: 0,
    },
    pendingActivities: [], pendingTimers: [], pendingWorkflowTask: null, bufferedEvents: [],
    requestIds: [...input.base.requestIds], pendingChildren: [], pendingSignalExternals: [], pendingCancelExternals: [],
    pendingUpdates: [], resultWaiters: [], searchAttributes: cloneData(started.searchAttributes), memo: cloneData(started.memo),
    startRequestId: input.base.startRequestId, workflowTaskDispatched: true, activitiesAwaitingBackoff: [],
    closeResult: null, closeFailure: null, signalCount: 0, historyLimitWarned: false,
    // What a retry or cron hand-over of the new run needs, as the base run's start recorded it.
    startInput: cloneData(started.input), startHeader: cloneData(started.header),
    lastCompletionResult: cloneData(started.lastCompletionResult), lastFailure: cloneData(started.continuedFailure),
    // The workflow-task rate window carries over, as across continue-as-new: a reset does not reset the limit.
    workflowTaskWindowStartTime: input.base.workflowTaskWindowStartTime, workflowTaskWindowCount: input.base.workflowTaskWindowCount,
    activityCancelDeadlines: [],
  };
}

/**
 * A pending activity as its event scheduled it (the event holds the effective timeouts and retry
 * policy), its first attempt due now: the base run's attempts are not carried over.
 */
function pendingActivityOf(eventId: number, a: HistoryEventAttributesOf<'ActivityTaskScheduled'>, now: number): PendingActivityInfo {
  const { scheduleToCloseTimeoutMs, scheduleToStartTimeoutMs, startToCloseTimeoutMs, heartbeatTimeoutMs } = a;
  const timeouts = { scheduleToCloseTimeoutMs, scheduleToStartTimeoutMs, startToCloseTimeoutMs, heartbeatTimeoutMs };
  return {
    scheduledEventId: eventId, activityId: a.activityId, activityType: a.activityType, taskQueue: a.taskQueue, attempt: 1,
    scheduledTime: now, currentAttemptScheduledTime: now, startedTime: null, startedIdentity: null, startedRequestId: null,
    lastHeartbeatTime: null, lastHeartbeatDetails: null, lastFailure: null, ...timeouts, retryPolicy: a.retryPolicy,
    retryDeadline: timeouts.scheduleToCloseTimeoutMs === null ? null : now + timeouts.scheduleToCloseTimeoutMs,
    cancelRequested: false, cancelRequestedEventId: null,
  };
}

const withoutActivity = (state: MutableStateSnapshot, scheduledEventId: number) =>
  (state.pendingActivities = state.pendingActivities.filter((p) => p.scheduledEventId !== scheduledEventId));
const withoutExternal = (list: MutableStateSnapshot['pendingSignalExternals'], initiatedEventId: number) => list.filter((p) => p.initiatedEventId !== initiatedEventId);

/** Applies one kept event's effect on what is pending. */
function foldEvent(state: MutableStateSnapshot, event: ResetBaseEvent, now: number): void {
  const a = event.attributes;
  switch (a.type) {
    case 'WorkflowTaskCompleted':
      state.executionInfo.lastWorkflowTaskCompletedEventId = event.eventId;
      return;
    case 'ActivityTaskScheduled':
      state.pendingActivities.push(pendingActivityOf(event.eventId, a, now));
      return;
    case 'ActivityTaskCancelRequested': {
      const activity = state.pendingActivities.find((p) => p.scheduledEventId === a.scheduledEventId);
      if (activity) Object.assign(activity, { cancelRequested: true, cancelRequestedEventId: event.eventId });
      return;
    }
    case 'ActivityTaskCompleted':
    case 'ActivityTaskFailed':
    case 'ActivityTaskTimedOut':
    case 'ActivityTaskCanceled':
      withoutActivity(state, a.scheduledEventId);
      return;
    case 'TimerStarted':
      state.pendingTimers.push({ timerId: a.timerId, startedEventId: event.eventId, expiryTime: event.eventTime + a.startToFireTimeoutMs });
      return;
    case 'TimerFired':
    case 'TimerCanceled':
      state.pendingTimers = state.pendingTimers.filter((t) => t.startedEventId !== a.startedEventId);
      return;
    case 'WorkflowExecutionSignaled':
      state.signalCount++;
      return;
    case 'WorkflowExecutionCancelRequested':
      state.executionInfo.cancelRequested = true;
      return;
    case 'UpsertWorkflowSearchAttributes':
      state.searchAttributes = mergeSearchAttributes(state.searchAttributes, cloneData(a.searchAttributes));
      return;
    case 'WorkflowPropertiesModified':
      state.memo = { ...state.memo, ...cloneData(a.upsertedMemo) };
      return;
    case 'MarkerRecorded':
      if (a.markerName === HISTORY_LIMIT_WARNING_MARKER) state.historyLimitWarned = true;
      return;
    case 'SignalExternalWorkflowExecutionInitiated':
      state.pendingSignalExternals.push({ initiatedEventId: event.eventId, namespace: a.namespace, workflowId: a.workflowExecution.workflowId, runId: a.workflowExecution.runId });
      return;
    case 'ExternalWorkflowExecutionSignaled':
    case 'SignalExternalWorkflowExecutionFailed':
      state.pendingSignalExternals = withoutExternal(state.pendingSignalExternals, a.initiatedEventId);
      return;
    case 'RequestCancelExternalWorkflowExecutionInitiated':
      state.pendingCancelExternals.push({ initiatedEventId: event.eventId, namespace: a.namespace, workflowId: a.workflowExecution.workflowId, runId: a.workflowExecution.runId });
      return;
    case 'ExternalWorkflowExecutionCancelRequested':
    case 'RequestCancelExternalWorkflowExecutionFailed':
      state.pendingCancelExternals = withoutExternal(state.pendingCancelExternals, a.initiatedEventId);
      return;
    default:
      foldChildEvent(state, event);
      foldUpdateEvent(state, event);
      return;
  }
}
