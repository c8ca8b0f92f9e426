/**
 * Child workflows across a reset. The children themselves are not touched by a reset (as in
 * Temporal): a child pending at the reset point stays pending in the new run, and the base run's
 * parent close policy is not applied to it. Such a child still names the run that started it as
 * its parent, so its answers (started, start failed, closed) are addressed to that run, which is
 * closed or gone: the new run accepts them in its place.
 *
 * The rule that makes this safe: the new run remembers, for each child it inherited, the run that
 * initiated it (an "inheritance mark" kept among the run's request ids — MutableStateSnapshot v1
 * has no field for it, and no schema version may be added for it). An answer addressed to another
 * run of this workflow id is accepted only if a mark says that run initiated the pending child of
 * the same initiated event id, namespace and workflow id. The marks are rebuilt at every reset for
 * the children pending at its point (a child inherited through several resets keeps naming the run
 * that started it), so a continue-as-new successor or a later run never has one and never takes an
 * answer that is not its own.
 *
 * The run's own parent close policy, and its `childWorkflowOnly` signals and cancellation requests,
 * reach an inherited child under the initiating run's name, the only parent the child knows
 * (`parentCloseSenderOf`, `inheritedParentRunOf`).
 * @module
 */
import type { Command, ResetBaseEvent } from '../../topics/schemas/command/index.js';
import type { HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { appendEvent, type Ctx } from './context.js';

/** Prefix of an inheritance mark among the run's request ids: `<prefix><initiatedEventId>:<initiating run id>`. */
export const INHERITED_CHILD_MARK_PREFIX = 'logbook-reset-inherited-child:';

/** True for an inheritance mark (kept out of the request-id window's eviction: see `rememberRequestId`). */
export function isInheritanceMark(requestId: string): boolean {
  return requestId.startsWith(INHERITED_CHILD_MARK_PREFIX);
}

const markOf = (initiatedEventId: number, runId: string): string => `${INHERITED_CHILD_MARK_PREFIX}${initiatedEventId}:${runId}`;

/** The run that initiated the inherited child of `initiatedEventId`; null for a child the run started itself. */
export function initiatingRunOf(state: MutableStateSnapshot, initiatedEventId: number): string | null {
  const prefix = `${INHERITED_CHILD_MARK_PREFIX}${initiatedEventId}:`;
  const mark = state.requestIds.find((id) => id.startsWith(prefix));
  return mark === undefined ? null : mark.slice(prefix.length);
}

/** The run a pending child knows as its parent: the initiating run of an inherited child, else this run. */
export function parentCloseSenderOf(state: MutableStateSnapshot, initiatedEventId: number): string {
  return initiatingRunOf(state, initiatedEventId) ?? state.executionInfo.runId;
}

/**
 * The run an inherited pending child with this workflow id knows as its parent, or null if the run
 * has no such child: a `childWorkflowOnly` signal or cancellation to it names that run as its
 * initiator, which the child checks (`notChildOfSender`); `reset-child-requests.ts` routes the
 * answer back.
 */
export function inheritedParentRunOf(state: MutableStateSnapshot, namespace: string, workflowId: string): string | null {
  for (const child of state.pendingChildren) {
    if (child.namespace !== namespace || child.workflowId !== workflowId) continue;
    const run = initiatingRunOf(state, child.initiatedEventId);
    if (run !== null) return run;
  }
  return null;
}

/**
 * Replaces the base run's marks in the new run's request ids by one per child pending at the reset
 * point: it names the run that initiated it (the base run, or the run the base inherited it from).
 */
export function markInheritedChildren(base: MutableStateSnapshot, rebuilt: MutableStateSnapshot): void {
  const marks = rebuilt.pendingChildren.map((c) => markOf(c.initiatedEventId, parentCloseSenderOf(base, c.initiatedEventId)));
  rebuilt.requestIds = [...rebuilt.requestIds.filter((id) => !isInheritanceMark(id)), ...marks];
}

type ChildAnswer = Extract<Command['body'], { type: 'RecordChildExecutionStarted' | 'RecordChildExecutionStartFailed' | 'RecordChildExecutionCompleted' }>;

function childAnswer(body: Command['body']): ChildAnswer | null {
  const answers = ['RecordChildExecutionStarted', 'RecordChildExecutionStartFailed', 'RecordChildExecutionCompleted'];
  return answers.includes(body.type) ? body as ChildAnswer : null;
}

/**
 * True if `command` is a child's answer addressed to another run of this workflow that the current
 * run takes in its place: that run initiated the child the current run inherited (see the module
 * comment). The command then applies to the current run as if addressed to it.
 */
export function answersInheritedChild(state: MutableStateSnapshot, command: Command): boolean {
  const answer = childAnswer(command.body);
  if (answer === null || command.runId === null) return false;
  const child = state.pendingChildren.find((p) => p.initiatedEventId === answer.initiatedEventId);
  const workflowId = answer.type === 'RecordChildExecutionStartFailed' ? answer.workflowId : answer.workflowExecution.workflowId;
  if (!child || child.namespace !== answer.namespace || child.workflowId !== workflowId) return false;
  return initiatingRunOf(state, child.initiatedEventId) === command.runId;
}

const CHILD_OUTCOME_TYPES = [
  'ChildWorkflowExecutionStarted', 'StartChildWorkflowExecutionFailed', 'ChildWorkflowExecutionCompleted', 'ChildWorkflowExecutionFailed',
  'ChildWorkflowExecutionCanceled', 'ChildWorkflowExecutionTerminated', 'ChildWorkflowExecutionTimedOut',
] as const;

/** An event of a child's life after its initiation: its start, its start's failure, or how it ended. */
export type ChildOutcome = Extract<HistoryEventAttributes, { type: (typeof CHILD_OUTCOME_TYPES)[number] }>;

/** The event's child outcome, or null if it is not one. */
export function childOutcomeOf(attributes: HistoryEventAttributes): ChildOutcome | null {
  return (CHILD_OUTCOME_TYPES as readonly string[]).includes(attributes.type) ? attributes as ChildOutcome : null;
}

/** Applies one kept event's effect on the pending children of the run a reset rebuilds. */
export function foldChildEvent(state: MutableStateSnapshot, event: ResetBaseEvent): void {
  const a = event.attributes;
  if (a.type === 'StartChildWorkflowExecutionInitiated') {
    state.pendingChildren.push({
      initiatedEventId: event.eventId, startedEventId: null, namespace: a.namespace, workflowId: a.workflowId, runId: null,
      workflowType: a.workflowType, parentClosePolicy: a.parentClosePolicy,
    });
    return;
  }
  const outcome = childOutcomeOf(a);
  if (outcome === null) return;
  const child = state.pendingChildren.find((p) => p.initiatedEventId === outcome.initiatedEventId);
  if (!child) return;
  if (outcome.type === 'ChildWorkflowExecutionStarted') Object.assign(child, { runId: outcome.workflowExecution.runId, startedEventId: event.eventId });
  else state.pendingChildren = state.pendingChildren.filter((p) => p !== child);
}

/**
 * True if a base event after the reset point is the outcome of a child initiated at or before the
 * point (Temporal re-applies them, so that a child that started or ended between the point and the
 * reset reaches the new run, whose pending child would otherwise wait for an answer already given).
 */
export function isReappliedChildOutcome(event: ResetBaseEvent, resetPointEventId: number): boolean {
  const outcome = childOutcomeOf(event.attributes);
  return outcome !== null && outcome.initiatedEventId <= resetPointEventId;
}

/**
 * Re-applies a child outcome to the new run if its child is pending there (a duplicate or an
 * outcome of a child the run does not have changes nothing): records the child's run, or drops it
 * from the pending children, and appends the event with the started event id of the new run.
 */
export function reapplyChildOutcome(ctx: Ctx, outcome: ChildOutcome): void {
  const child = ctx.state.pendingChildren.find((p) => p.initiatedEventId === outcome.initiatedEventId);
  if (!child) return;
  if (outcome.type === 'ChildWorkflowExecutionStarted') {
    if (child.runId !== null) return;
    child.runId = outcome.workflowExecution.runId;
    appendEvent(ctx, outcome);
    return;
  }
  if (outcome.type !== 'StartChildWorkflowExecutionFailed' && child.startedEventId === null) return;
  ctx.state.pendingChildren = ctx.state.pendingChildren.filter((p) => p !== child);
  appendEvent(ctx, 'startedEventId' in outcome ? { ...outcome, startedEventId: child.startedEventId! } : outcome);
}
