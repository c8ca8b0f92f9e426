/**
 * What the history state machine returns for one input: the new snapshot, the events to append,
 * the tasks to dispatch after the commit, the replies, the visibility row and why an input was
 * refused. See `index.ts` for the rules the processor relies on.
 * @module
 */
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import type { Command } from '../../topics/schemas/command/index.js';
import type { RetryPolicy } from '../../topics/schemas/common/v1-records.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';

/** Why an input could not be applied (stable `code`, human `message`). */
export interface Rejection {
  code: string;
  message: string;
}

/** The rejection codes the machine uses. */
export const RejectionCode = {
  /** A start found the workflow id taken (conflict policy Fail, or the reuse policy refused). */
  WorkflowExecutionAlreadyStarted: 'WorkflowExecutionAlreadyStarted',
  /** No run was ever started under this workflow id. */
  WorkflowNotFound: 'WorkflowNotFound',
  /** The run is closed: signals, cancel requests and terminations no longer apply. */
  WorkflowClosed: 'WorkflowClosed',
  /** The command names a run id that is not the workflow's current run. */
  RunNotFound: 'RunNotFound',
  /** A workflow-task completion or failure for a task that is not the pending attempt. */
  StaleWorkflowTaskCompletion: 'StaleWorkflowTaskCompletion',
  /** A workflow-task claim for a task that is not the pending, dispatched attempt, or that another claim holds. */
  StaleWorkflowTaskClaim: 'StaleWorkflowTaskClaim',
  /** An activity claim, heartbeat or result for an attempt that is not the current one. */
  StaleActivityResult: 'StaleActivityResult',
  /** A claim for an activity attempt another claim already holds (a redelivered task): the worker must not run it. */
  StaleActivityClaim: 'StaleActivityClaim',
  /** A message between a parent and its child whose run has moved on (closed, continued as new). */
  StaleChildMessage: 'StaleChildMessage',
  /** A worker acknowledged a cancellation nobody requested. */
  ActivityNotCancelRequested: 'ActivityNotCancelRequested',
  /** Too many events are buffered behind the in-flight workflow task (retry later). */
  ResourceExhausted: 'ResourceExhausted',
  /** The run reached a per-run limit (signals per run); retrying does not help, a new run does. */
  LimitExceeded: 'LimitExceeded',
  /** A feature planned for later (updates, children, …). */
  NotSupportedYet: 'NotSupportedYet',
  /** A field has a value the engine cannot accept. */
  InvalidArgument: 'InvalidArgument',
  /** A plaintext payload for a task queue whose namespace requires the payload codec (`codec-required.ts`). */
  PlaintextPayloadRefused: 'PlaintextPayloadRefused',
  /** A search attribute the namespace refuses (`search-attribute-guard.ts`). */
  SearchAttributeRefused: 'SearchAttributeRefused',
  /** A reset carries the run's history as of an earlier event than the run's last: re-read it and retry. */
  ResetBaseChanged: 'ResetBaseChanged',
  /** A command type this machine does not know (a newer schema than the engine). */
  UnknownCommand: 'UnknownCommand',
} as const;

/** @see RejectionCode */
export type RejectionCode = (typeof RejectionCode)[keyof typeof RejectionCode];

/** Where a task goes and which run it belongs to. */
interface TaskTarget {
  namespace: string;
  workflowId: string;
  runId: string;
  taskQueue: string;
}

/**
 * Send a workflow task. The processor builds `topics/schemas/workflow-task` from it with the
 * events `fromEventId..lastEventId` of the run (written in this transition or before).
 *
 * `fromEventId` is the id of the last completed workflow task's `WorkflowTaskCompleted` event (1
 * before the first completion): a worker that ran that task has seen every event before it. It is
 * the same for every attempt of a task. For attempt 1 the task's `WorkflowTaskScheduled` event is
 * `lastEventId` (= `scheduledEventId`); for attempt ≥ 2 (a transient retry) nothing of the task
 * is written yet: `scheduledEventId` = `lastEventId` + 1 and the worker synthesises the
 * Scheduled event from this intent, as it does the Started event (`startedEventIdHint`).
 */
export interface WorkflowTaskIntent extends TaskTarget {
  type: 'WorkflowTask';
  workflowType: string;
  scheduledEventId: number;
  attempt: number;
  scheduledTime: number;
  startToCloseTimeoutMs: number;
  /** Id WorkflowTaskStarted will get: always `scheduledEventId + 1`. */
  startedEventIdHint: number;
  fromEventId: number;
  lastEventId: number;
  /** History size before the task's WorkflowTaskStarted; recorded there when the task completes. */
  historySizeBytes: number;
  /** The history passed a suggestion limit (see `history-limits.ts`); recorded in WorkflowTaskStarted too. */
  suggestContinueAsNew: boolean;
  /** The admitted updates the workflow must accept or reject (see `updates.ts`). */
  messages: UpdateRequestMessage[];
}

/**
 * Send an activity attempt. The processor builds `topics/schemas/activity-task` from it, reading
 * input and header from the `ActivityTaskScheduled` event `scheduledEventId`.
 */
export interface ActivityTaskIntent extends Omit<ActivityTask, 'input' | 'header' | 'idempotencyKey' | 'retryPolicy'> {
  type: 'ActivityTask';
  /** The effective policy (defaults applied), never null here. */
  retryPolicy: RetryPolicy;
}

/** Tell the workers of `taskQueue` (control topic) to cancel a claimed activity attempt. */
export interface CancelActivityIntent extends TaskTarget {
  type: 'CancelActivity';
  activityId: string;
  scheduledEventId: number;
  attempt: number;
  reason: string;
}

/** What to dispatch after the commit. */
export type TaskIntent = WorkflowTaskIntent | ActivityTaskIntent | CancelActivityIntent;

/**
 * A run that this input closed and replaced: by a start with conflict policy TerminateExisting, or
 * by continue-as-new (the workflow task's completion closes the run and starts the next one).
 */
export interface ClosedRun {
  /** Its final snapshot (for the processor's closed-run record). */
  state: MutableStateSnapshot;
  /** Its closing visibility row. */
  visibility: VisibilityRow;
}

/** Everything one input produces. */
export interface Transition {
  /** The new snapshot, or null when nothing changed (the input state is never mutated). */
  state: MutableStateSnapshot | null;
  changed: boolean;
  /**
   * New events, ids contiguous per run from the run's `nextEventId`. Only an input that replaces
   * the run (see {@link closedRun}) has events of two runs: the old run's first.
   */
  events: HistoryEvent[];
  tasks: TaskIntent[];
  /**
   * Commands for other workflows (signals and cancellation requests to other runs, and their
   * results), written to the internal commands topic in the same transaction as the events: a
   * transactional outbox, so a re-applied batch sends them again with the same request ids.
   */
  commands: Command[];
  /** Answers to `replyTo`s (`Reply.requestId` = `replyTo.requestId`), including result waiters. */
  replies: Reply[];
  /** The summary row of `state`'s run when it changed (start, close, search attributes, memo). */
  visibility: VisibilityRow | null;
  /** Set only when the input closed the run and started the next (TerminateExisting, continue-as-new); its events lead `events`. */
  closedRun: ClosedRun | null;
  /** Set when the input was not applied; then nothing else is set but the Error reply, if any. */
  rejection: Rejection | null;
  /**
   * Set when the retention of the workflow's closed run ended (`retention.ts`): `state` is null and
   * the processor deletes the workflow's state, its visibility rows and its history (every run of
   * the workflow id: earlier runs closed before this one, so their retention ended too).
   */
  purgedRun?: PurgedRun | null;
}

/** The workflow whose closed runs are deleted. */
export interface PurgedRun {
  namespace: string;
  workflowId: string;
  /** The current (last) run, whose retention timer fired. */
  runId: string;
}
