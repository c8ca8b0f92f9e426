/**
 * Child workflows, on the parent's side: a completion's `StartChildWorkflowExecution` records
 * `StartChildWorkflowExecutionInitiated`, adds a pending child and, in the same transition, sends
 * the child's start to its shard (a transactional outbox, as for external signals); the child's
 * shard answers with `RecordChildExecutionStarted` / `…StartFailed`, and its run with
 * `RecordChildExecutionCompleted` when it closes (`child-answers.ts`). When the parent closes,
 * each pending child gets what its parent close policy asks for.
 *
 * Exactly-once comes from determinism: the start's request id and the child's run id derive from
 * the parent's run and initiated event id, so a re-applied batch re-sends the same start, which
 * the child's shard recognises; an answer for a child that is no longer pending changes nothing.
 * @module
 */
import type { Command, CommandBodyOf, WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import type { PendingChildInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { plaintextChildOutcome } from './codec-required.js';
import { appendEvent, type Ctx } from './context.js';
import { childRunIdOf } from './deterministic-seed.js';
import { deliver } from './delivery.js';
import { parentCloseSenderOf } from './reset-children.js';
import { outgoing } from './outgoing-command.js';

/** Request id of the start a parent's initiated event sends: the same on every re-application. */
export function childStartRequestId(parentRunId: string, initiatedEventId: number): string {
  return `start-child:${parentRunId}:${initiatedEventId}`;
}

/** Identity recorded on the child when a parent close policy terminates or cancels it. */
export const PARENT_CLOSE_POLICY_IDENTITY = 'logbook-parent-close-policy';

/** Prefix of the request ids of what a closing parent sends its children under their parent close policy. */
export const PARENT_CLOSE_REQUEST_PREFIX = 'parent-close:';

/** Request id of what a closing parent sends a child under its parent close policy. */
export function parentClosePolicyRequestId(parentRunId: string, initiatedEventId: number): string {
  return `${PARENT_CLOSE_REQUEST_PREFIX}${parentRunId}:${initiatedEventId}`;
}


/** StartChildWorkflowExecution: records the initiation and sends the start to the child's shard. */
export function initiateChild(
  ctx: Ctx, c: WorkflowCommandAttributesMap['StartChildWorkflowExecution'], completedEventId: number, identity: string,
): void {
  const info = ctx.state.executionInfo;
  const namespace = c.namespace ?? info.namespace;
  const taskQueue = c.taskQueue ?? info.taskQueue;
  const event = appendEvent(ctx, {
    type: 'StartChildWorkflowExecutionInitiated', namespace, workflowId: c.workflowId, workflowType: c.workflowType, taskQueue,
    input: c.input, workflowExecutionTimeoutMs: c.workflowExecutionTimeoutMs, workflowRunTimeoutMs: c.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: c.workflowTaskTimeoutMs, parentClosePolicy: c.parentClosePolicy, workflowTaskCompletedEventId: completedEventId,
    workflowIdReusePolicy: c.workflowIdReusePolicy, retryPolicy: c.retryPolicy, cronSchedule: c.cronSchedule, header: c.header,
    memo: c.memo, searchAttributes: c.searchAttributes,
  });
  ctx.state.pendingChildren.push({
    initiatedEventId: event.eventId, startedEventId: null, namespace, workflowId: c.workflowId, runId: null,
    workflowType: c.workflowType, parentClosePolicy: c.parentClosePolicy,
  });
  ctx.commands.push(outgoing(namespace, c.workflowId, null, childStartRequestId(info.runId, event.eventId), {
    type: 'StartWorkflowExecution', runId: childRunIdOf(info.runId, event.eventId), workflowType: c.workflowType, taskQueue,
    input: c.input, identity, workflowIdConflictPolicy: 'Fail', workflowIdReusePolicy: c.workflowIdReusePolicy,
    workflowExecutionTimeoutMs: c.workflowExecutionTimeoutMs, workflowRunTimeoutMs: c.workflowRunTimeoutMs,
    workflowTaskTimeoutMs: c.workflowTaskTimeoutMs, retryPolicy: c.retryPolicy, cronSchedule: c.cronSchedule, workflowStartDelayMs: null,
    memo: c.memo, searchAttributes: c.searchAttributes, header: c.header,
    parent: { namespace: info.namespace, workflowId: info.workflowId, runId: info.runId, initiatedEventId: event.eventId },
  }));
}

function pendingChild(ctx: Ctx, initiatedEventId: number): PendingChildInfo | undefined {
  if (ctx.state.executionInfo.status !== 'Running') return undefined;
  return ctx.state.pendingChildren.find((p) => p.initiatedEventId === initiatedEventId);
}

function dropPending(ctx: Ctx, child: PendingChildInfo): void {
  ctx.state.pendingChildren = ctx.state.pendingChildren.filter((p) => p !== child);
}

function startedEvent(child: PendingChildInfo, runId: string): HistoryEventAttributes {
  return {
    type: 'ChildWorkflowExecutionStarted', namespace: child.namespace, initiatedEventId: child.initiatedEventId,
    workflowExecution: { workflowId: child.workflowId, runId }, workflowType: child.workflowType, header: {},
  };
}

/** RecordChildExecutionStarted: the child's run started; a duplicate (already started) changes nothing. */
export function recordChildStarted(ctx: Ctx, body: CommandBodyOf<'RecordChildExecutionStarted'>): void {
  const child = pendingChild(ctx, body.initiatedEventId);
  if (!child || child.runId !== null) return;
  const runId = body.workflowExecution.runId ?? '';
  child.runId = runId;
  deliver(ctx, [startedEvent(child, runId)]);
}

/** RecordChildExecutionStartFailed: the child could not start (its id is taken); the parent's code sees why. */
export function recordChildStartFailed(ctx: Ctx, body: CommandBodyOf<'RecordChildExecutionStartFailed'>): void {
  const child = pendingChild(ctx, body.initiatedEventId);
  if (!child || child.runId !== null) return;
  dropPending(ctx, child);
  deliver(ctx, [{
    type: 'StartChildWorkflowExecutionFailed', namespace: child.namespace, workflowId: child.workflowId, workflowType: child.workflowType,
    cause: body.cause, initiatedEventId: child.initiatedEventId,
    // The snapshot does not keep the initiating task's id; the latest completed task exists for sure.
    workflowTaskCompletedEventId: ctx.state.executionInfo.lastWorkflowTaskCompletedEventId ?? 0,
  }]);
}

/**
 * The event that records how a child ended. Its `startedEventId` is 0 while the child's
 * ChildWorkflowExecutionStarted is still buffered; `appendEvent` resolves it (see `context.ts`).
 */
function closedEvent(child: PendingChildInfo, body: CommandBodyOf<'RecordChildExecutionCompleted'>): HistoryEventAttributes | null {
  const common = {
    namespace: child.namespace, workflowExecution: body.workflowExecution, workflowType: child.workflowType,
    initiatedEventId: child.initiatedEventId, startedEventId: child.startedEventId ?? 0,
  };
  switch (body.status) {
    case 'Completed':
      return { type: 'ChildWorkflowExecutionCompleted', ...common, result: body.result };
    case 'Failed':
      return body.failure === null ? null : { type: 'ChildWorkflowExecutionFailed', ...common, failure: body.failure, retryState: body.retryState ?? 'RetryPolicyNotSet' };
    case 'Canceled':
      return { type: 'ChildWorkflowExecutionCanceled', ...common, details: body.details };
    case 'Terminated':
      return { type: 'ChildWorkflowExecutionTerminated', ...common };
    case 'TimedOut':
      return { type: 'ChildWorkflowExecutionTimedOut', ...common, retryState: body.retryState ?? 'Timeout' };
    default:
      return null;
  }
}

/**
 * RecordChildExecutionCompleted: the child's chain ended (its last run closed). Delivered as the
 * matching ChildWorkflowExecution… event; a child whose start was not recorded yet gets its
 * Started event first, so the parent's history always has both. An outcome carrying a plaintext
 * payload for a parent on a codec-required queue is delivered as ChildWorkflowExecutionFailed with
 * `PlaintextPayloadRefused` instead, as an activity's plaintext output is (`codec-required.ts`).
 */
export function recordChildCompleted(ctx: Ctx, body: CommandBodyOf<'RecordChildExecutionCompleted'>): void {
  const child = pendingChild(ctx, body.initiatedEventId);
  if (!child) return;
  const refused = plaintextChildOutcome(ctx, body);
  const closed = closedEvent(child, refused === null ? body : { ...body, status: 'Failed', result: null, details: null, failure: refused, retryState: 'NonRetryableFailure' });
  if (!closed) return;
  const events: HistoryEventAttributes[] = child.runId === null ? [startedEvent(child, body.workflowExecution.runId ?? '')] : [];
  dropPending(ctx, child);
  deliver(ctx, [...events, closed]);
}

/**
 * When the parent run closes (any way, continue-as-new included, as in Temporal): each pending
 * child is terminated (Terminate), asked to cancel (RequestCancel) or left alone (Abandon), by a
 * command written in the parent's closing transaction. It names the child's workflow id only, so a
 * child that continued as new is reached in its current run; the child's shard applies it only if
 * that run is this parent's child from this initiated event (`notChildOfSender`), so a run that
 * holds the id for another reason (the start failed, or the child ended and the id was reused)
 * is never touched. The start, sent earlier to the same partition, is always applied before it.
 */
export function applyParentClosePolicies(ctx: Ctx, reason: string, identity: string): void {
  const info = ctx.state.executionInfo;
  for (const child of ctx.state.pendingChildren) {
    if (child.parentClosePolicy === 'Abandon') continue;
    // A child inherited through a reset knows the run that started it as its parent.
    const sender = parentCloseSenderOf(ctx.state, child.initiatedEventId);
    const requestId = parentClosePolicyRequestId(sender, child.initiatedEventId);
    const why = `parent close policy ${child.parentClosePolicy}: parent ${info.workflowId} (run ${info.runId}) ${reason}`;
    const body: Command['body'] = child.parentClosePolicy === 'Terminate'
      ? { type: 'TerminateWorkflowExecution', reason: why, details: null, identity }
      : {
        type: 'RequestCancelWorkflowExecution', identity, reason: why, childWorkflowOnly: true,
        externalInitiator: { namespace: info.namespace, workflowId: info.workflowId, runId: sender, initiatedEventId: child.initiatedEventId },
      };
    ctx.commands.push(outgoing(child.namespace, child.workflowId, null, requestId, body));
  }
  ctx.state.pendingChildren = [];
}
