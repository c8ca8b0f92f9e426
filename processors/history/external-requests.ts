/**
 * Signals and cancellation requests one run sends to another (Temporal's external workflow
 * handle), across shards. The initiator records `…Initiated` and, in the same transition, emits a
 * command for the target's shard; the target applies it like a client's and answers with a
 * `Record…Result` command; the initiator records the outcome and wakes the workflow.
 *
 * Exactly-once comes from determinism: the outgoing request id is derived from the initiator's
 * run and initiated event id, so a re-applied batch re-sends the same id and the target's request
 * id window drops the copy; the initiator drops a result whose initiated event is no longer pending.
 * @module
 */
import type { Command, CommandBodyOf, WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type {
  CancelExternalWorkflowExecutionFailedCause,
  SignalExternalWorkflowExecutionFailedCause,
} from '../../topics/schemas/common/v1-enums.js';
import type { ExternalInitiatorInfo } from '../../topics/schemas/common/v1-records.js';
import type { PendingExternalRequestInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { HistoryEventAttributes } from '../../topics/schemas/history-event/index.js';
import { appendEvent, type Ctx } from './context.js';
import { deliver } from './delivery.js';
import { inheritedParentRunOf } from './reset-children.js';
import { RejectionCode, type Transition } from './transition.js';
import { outgoing } from './outgoing-command.js';

/** The request id of the command an initiated event sends: the same on every re-application. */
export function externalRequestId(kind: 'signal' | 'cancel', runId: string, initiatedEventId: number): string {
  return `${kind}-external:${runId}:${initiatedEventId}`;
}

/**
 * The initiator a request names. A `childWorkflowOnly` request to a child inherited through a reset
 * names the run the child knows as its parent (`reset-children.ts`); its answer, addressed to that
 * run, still reaches this one (`reset-child-requests.ts`).
 */
function initiator(ctx: Ctx, initiatedEventId: number, target: { namespace: string; workflowId: string; childWorkflowOnly: boolean }): ExternalInitiatorInfo {
  const info = ctx.state.executionInfo;
  const inheritedParent = target.childWorkflowOnly ? inheritedParentRunOf(ctx.state, target.namespace, target.workflowId) : null;
  return { namespace: info.namespace, workflowId: info.workflowId, runId: inheritedParent ?? info.runId, initiatedEventId };
}


/** SignalExternalWorkflowExecution: records the initiation and sends the signal to the target's shard. */
export function initiateSignalExternal(
  ctx: Ctx, c: WorkflowCommandAttributesMap['SignalExternalWorkflowExecution'], completedEventId: number, identity: string,
): void {
  const namespace = c.namespace ?? ctx.state.executionInfo.namespace;
  const workflowExecution = { workflowId: c.workflowId, runId: c.runId };
  const event = appendEvent(ctx, {
    type: 'SignalExternalWorkflowExecutionInitiated', workflowTaskCompletedEventId: completedEventId, namespace, workflowExecution,
    signalName: c.signalName, input: c.input, childWorkflowOnly: c.childWorkflowOnly, header: c.header,
  });
  ctx.state.pendingSignalExternals.push({ initiatedEventId: event.eventId, namespace, workflowId: c.workflowId, runId: c.runId });
  ctx.commands.push(outgoing(namespace, c.workflowId, c.runId, externalRequestId('signal', event.runId, event.eventId), {
    type: 'SignalWorkflowExecution', signalName: c.signalName, input: c.input, identity, header: c.header,
    externalInitiator: initiator(ctx, event.eventId, { namespace, workflowId: c.workflowId, childWorkflowOnly: c.childWorkflowOnly }), childWorkflowOnly: c.childWorkflowOnly,
  }));
}

/** RequestCancelExternalWorkflowExecution: records the initiation and sends the request to the target's shard. */
export function initiateCancelExternal(
  ctx: Ctx, c: WorkflowCommandAttributesMap['RequestCancelExternalWorkflowExecution'], completedEventId: number, identity: string,
): void {
  const namespace = c.namespace ?? ctx.state.executionInfo.namespace;
  const workflowExecution = { workflowId: c.workflowId, runId: c.runId };
  const event = appendEvent(ctx, {
    type: 'RequestCancelExternalWorkflowExecutionInitiated', workflowTaskCompletedEventId: completedEventId, namespace, workflowExecution,
    childWorkflowOnly: c.childWorkflowOnly, reason: c.reason,
  });
  ctx.state.pendingCancelExternals.push({ initiatedEventId: event.eventId, namespace, workflowId: c.workflowId, runId: c.runId });
  ctx.commands.push(outgoing(namespace, c.workflowId, c.runId, externalRequestId('cancel', event.runId, event.eventId), {
    type: 'RequestCancelWorkflowExecution', identity, reason: c.reason,
    externalInitiator: initiator(ctx, event.eventId, { namespace, workflowId: c.workflowId, childWorkflowOnly: c.childWorkflowOnly }), childWorkflowOnly: c.childWorkflowOnly,
  }));
}

/** Removes and returns the pending request of `initiatedEventId`; undefined for a duplicate result. */
function takePending(list: PendingExternalRequestInfo[], initiatedEventId: number): PendingExternalRequestInfo | undefined {
  const index = list.findIndex((p) => p.initiatedEventId === initiatedEventId);
  return index < 0 ? undefined : list.splice(index, 1)[0];
}

/**
 * The WorkflowTaskCompleted event the failure points at. The snapshot does not keep the
 * initiating task's id, so the failure names the latest completed task, as a recorded event must
 * point at one that exists.
 */
const latestCompletion = (ctx: Ctx) => ctx.state.executionInfo.lastWorkflowTaskCompletedEventId ?? 0;

/** The pending request an answer closes, and the event that records the answer; nothing if it is not pending. */
function recordAnswer(
  ctx: Ctx,
  pendingList: PendingExternalRequestInfo[],
  initiatedEventId: number,
  event: (pending: PendingExternalRequestInfo, workflowExecution: { workflowId: string; runId: string | null }) => HistoryEventAttributes,
): void {
  if (ctx.state.executionInfo.status !== 'Running') return;
  const pending = takePending(pendingList, initiatedEventId);
  if (!pending) return;
  deliver(ctx, [event(pending, { workflowId: pending.workflowId, runId: pending.runId })]);
}

/** RecordSignalExternalWorkflowExecutionResult: the target's answer reaches the initiator. */
export function recordSignalExternalResult(ctx: Ctx, body: CommandBodyOf<'RecordSignalExternalWorkflowExecutionResult'>): void {
  recordAnswer(ctx, ctx.state.pendingSignalExternals, body.initiatedEventId, ({ initiatedEventId, namespace }, workflowExecution) =>
    body.failureCause === null
      ? { type: 'ExternalWorkflowExecutionSignaled', initiatedEventId, namespace, workflowExecution }
      : { type: 'SignalExternalWorkflowExecutionFailed', cause: body.failureCause, workflowTaskCompletedEventId: latestCompletion(ctx), namespace, workflowExecution, initiatedEventId });
}

/** RecordRequestCancelExternalWorkflowExecutionResult: the target's answer reaches the initiator. */
export function recordCancelExternalResult(ctx: Ctx, body: CommandBodyOf<'RecordRequestCancelExternalWorkflowExecutionResult'>): void {
  recordAnswer(ctx, ctx.state.pendingCancelExternals, body.initiatedEventId, ({ initiatedEventId, namespace }, workflowExecution) =>
    body.failureCause === null
      ? { type: 'ExternalWorkflowExecutionCancelRequested', initiatedEventId, namespace, workflowExecution }
      : { type: 'RequestCancelExternalWorkflowExecutionFailed', cause: body.failureCause, workflowTaskCompletedEventId: latestCompletion(ctx), namespace, workflowExecution, initiatedEventId });
}

/** The request id of the answer to the request `requestId` from another run (derived: a redelivered request gets the same answer id). */
export function externalResultRequestId(requestId: string): string {
  return `${requestId}:result`;
}

/**
 * Rejections by which a target that exists and is open refused the signal under a rule of its own,
 * so that resending it unchanged cannot succeed. The v1 cause enum has one such cause,
 * `SignalCountLimitExceeded`; a plaintext payload for a codec-required queue is reported with it
 * rather than as a missing workflow, which would be false (and would lead signal-or-start code to
 * start a second run). A cause of its own would take a new HistoryEvent and Command schema version.
 */
const REFUSED_BY_TARGET: ReadonlySet<string> = new Set([RejectionCode.LimitExceeded, RejectionCode.PlaintextPayloadRefused]);

function signalFailureCause(code: string): SignalExternalWorkflowExecutionFailedCause {
  return REFUSED_BY_TARGET.has(code) ? 'SignalCountLimitExceeded' : 'ExternalWorkflowExecutionNotFound';
}

/**
 * On the target's side: adds to the transition of a signal or cancellation request that came from
 * another run the result command for the initiator's shard, whether it was applied or refused (no
 * such workflow or run, closed, limits). A refusal is final: the initiator's workflow sees a
 * `…Failed` event. A cancellation request for a run already asked to cancel counts as delivered.
 */
export function answerInitiator(command: Command, transition: Transition): Transition {
  const body = command.body as Command['body'] | null | undefined;
  if (!body || body.type !== 'SignalWorkflowExecution' && body.type !== 'RequestCancelWorkflowExecution') return transition;
  const from = body.externalInitiator;
  if (!from) return transition;
  const code = transition.rejection?.code ?? null;
  const workflowExecution = { workflowId: command.workflowId, runId: command.runId };
  const common = { initiatedEventId: from.initiatedEventId, namespace: command.namespace, workflowExecution };
  const result: Command['body'] = body.type === 'SignalWorkflowExecution'
    ? { type: 'RecordSignalExternalWorkflowExecutionResult', ...common, failureCause: code === null ? null : signalFailureCause(code) }
    : { type: 'RecordRequestCancelExternalWorkflowExecutionResult', ...common, failureCause: code === null ? null : ('ExternalWorkflowExecutionNotFound' satisfies CancelExternalWorkflowExecutionFailedCause) };
  const answer = outgoing(from.namespace, from.workflowId, from.runId, externalResultRequestId(command.requestId), result);
  return { ...transition, commands: [...transition.commands, answer] };
}
