/**
 * Child workflows, on the child's side and between the two: the child's shard answers the start
 * its parent sent (`RecordChildExecutionStarted` / `…StartFailed`), a child's run tells its parent
 * when the chain ends (`RecordChildExecutionCompleted`, in the closing transaction), requests
 * marked `childWorkflowOnly` reach only a child of their sender, and the residue of a parent or
 * child that moved on is dropped quietly instead of being dead-lettered.
 * @module
 */
import type { Command } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Ctx } from './context.js';
import type { RunOutcome } from './close-run.js';
import { PARENT_CLOSE_REQUEST_PREFIX } from './child-workflows.js';
import { RejectionCode, type Rejection, type Transition } from './transition.js';
import { outgoing } from './outgoing-command.js';


/**
 * Adds to the transition of a start sent by a parent the answer for the parent's shard: the run
 * started (also for a re-sent start the run already took), or it could not. The v1 causes are
 * WorkflowAlreadyExists and NamespaceNotFound; the parent validated everything else before
 * sending, so any refusal here means the workflow id cannot be used now.
 */
export function answerParent(command: Command, transition: Transition): Transition {
  const body = command.body as Command['body'] | null | undefined;
  if (!body || body.type !== 'StartWorkflowExecution' || !body.parent) return transition;
  const parent = body.parent;
  const common = { initiatedEventId: parent.initiatedEventId, namespace: command.namespace, workflowType: body.workflowType };
  const answer: Command['body'] = transition.rejection === null
    ? { type: 'RecordChildExecutionStarted', ...common, workflowExecution: { workflowId: command.workflowId, runId: body.runId } }
    : { type: 'RecordChildExecutionStartFailed', ...common, workflowId: command.workflowId, cause: 'WorkflowAlreadyExists' };
  const record = outgoing(parent.namespace, parent.workflowId, parent.runId, `${command.requestId}:answer`, answer);
  return { ...transition, commands: [...transition.commands, record] };
}

/**
 * When a child's chain ends (its run closes other than by continuing as new), tells the parent
 * in the same transaction. The request id derives from the closing run, so a re-applied batch
 * re-sends the same notice and the parent, whose child is no longer pending, ignores it.
 */
export function notifyParentOfClose(ctx: Ctx, outcome: RunOutcome): void {
  const info = ctx.state.executionInfo;
  const parent = info.parent;
  if (!parent || outcome.status === 'ContinuedAsNew') return;
  const failed = outcome.status === 'Failed';
  ctx.commands.push(outgoing(parent.namespace, parent.workflowId, parent.runId, `child-closed:${info.runId}`, {
    type: 'RecordChildExecutionCompleted', initiatedEventId: parent.initiatedEventId, namespace: info.namespace,
    workflowExecution: { workflowId: info.workflowId, runId: info.runId }, workflowType: info.workflowType, status: outcome.status,
    result: outcome.result, details: outcome.status === 'Canceled' ? outcome.failure?.details ?? null : null,
    failure: failed ? outcome.failure : null,
    retryState: failed || outcome.status === 'TimedOut' ? outcome.retryState ?? (failed ? 'RetryPolicyNotSet' : 'Timeout') : null,
  }));
}

/** The parent run and initiated event a parent-close-policy request names in its request id, or null for other requests. */
function parentCloseSender(requestId: string): { runId: string; initiatedEventId: number } | null {
  if (!requestId.startsWith(PARENT_CLOSE_REQUEST_PREFIX)) return null;
  const rest = requestId.slice(PARENT_CLOSE_REQUEST_PREFIX.length);
  const colon = rest.lastIndexOf(':');
  return { runId: rest.slice(0, colon), initiatedEventId: Number(rest.slice(colon + 1)) };
}

/**
 * A request meant for a child applies only when the target's run is that child: a signal or
 * cancellation request with `childWorkflowOnly` (Temporal) must come from the run's parent, and a
 * parent close policy's request (addressed by workflow id, so that it reaches a child that
 * continued as new) from the parent run and initiated event that started it — never a run that
 * took the workflow id after the child ended. Otherwise it is refused as if there were no such
 * workflow (the sender of a signal or cancellation is told so).
 */
export function notChildOfSender(state: MutableStateSnapshot, command: Command): Rejection | null {
  const parent = state.executionInfo.parent;
  const notChild = (of: string): Rejection => ({ code: RejectionCode.WorkflowNotFound, message: `workflow ${command.workflowId} (run ${state.executionInfo.runId}) is not a child of ${of}` });
  const closing = parentCloseSender(command.requestId);
  if (closing) {
    const own = parent !== null && parent.runId === closing.runId && parent.initiatedEventId === closing.initiatedEventId;
    return own ? null : notChild(`run ${closing.runId}`);
  }
  const body = command.body;
  if (body.type !== 'SignalWorkflowExecution' && body.type !== 'RequestCancelWorkflowExecution') return null;
  const from = body.externalInitiator;
  if (!body.childWorkflowOnly || !from) return null;
  if (parent && parent.namespace === from.namespace && parent.workflowId === from.workflowId && parent.runId === from.runId) return null;
  return notChild(`run ${from.runId} of ${from.workflowId}`);
}

const childMessages = new Set(['RecordChildExecutionStarted', 'RecordChildExecutionStartFailed', 'RecordChildExecutionCompleted', 'RecordRequestCancelExternalWorkflowExecutionResult']);
const goneCodes = new Set<string>([RejectionCode.RunNotFound, RejectionCode.WorkflowNotFound, RejectionCode.WorkflowClosed]);

/**
 * A message between a parent and a child that found its run gone (the parent continued as new,
 * the child closed, or its workflow id now runs something else, before its parent close policy
 * reached it) is the normal residue of two runs living on: its refusal becomes
 * {@link RejectionCode.StaleChildMessage}, dropped quietly.
 */
export function quietStaleChildMessage(command: Command, transition: Transition): Transition {
  const rejection = transition.rejection;
  if (rejection === null || !goneCodes.has(rejection.code) || command.replyTo) return transition;
  if (!command.requestId.startsWith(PARENT_CLOSE_REQUEST_PREFIX) && !childMessages.has(command.body.type)) return transition;
  return { ...transition, rejection: { code: RejectionCode.StaleChildMessage, message: rejection.message } };
}
