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

function outgoing(ns: string, workflowId: string, runId: string, requestId: string, body: Command['body']): Command {
  return { requestId, namespace: ns, workflowId, runId, replyTo: null, body };
}

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
    retryState: failed ? 'RetryPolicyNotSet' : outcome.status === 'TimedOut' ? 'Timeout' : null,
  }));
}

/**
 * A signal or cancellation request with `childWorkflowOnly` applies only when the target's run is
 * a child of the run that sent it (Temporal); otherwise it is refused as if there were no such
 * workflow, and the sender is told so.
 */
export function notChildOfSender(state: MutableStateSnapshot, command: Command): Rejection | null {
  const body = command.body;
  if (body.type !== 'SignalWorkflowExecution' && body.type !== 'RequestCancelWorkflowExecution') return null;
  const from = body.externalInitiator;
  if (!body.childWorkflowOnly || !from) return null;
  const parent = state.executionInfo.parent;
  if (parent && parent.namespace === from.namespace && parent.workflowId === from.workflowId && parent.runId === from.runId) return null;
  return { code: RejectionCode.WorkflowNotFound, message: `workflow ${command.workflowId} is not a child of run ${from.runId} of ${from.workflowId}` };
}

const childMessages = new Set(['RecordChildExecutionStarted', 'RecordChildExecutionStartFailed', 'RecordChildExecutionCompleted', 'RecordRequestCancelExternalWorkflowExecutionResult']);
const goneCodes = new Set<string>([RejectionCode.RunNotFound, RejectionCode.WorkflowNotFound, RejectionCode.WorkflowClosed]);

/**
 * A message between a parent and a child that found its run gone (the parent continued as new,
 * the child closed before its parent close policy reached it) is the normal residue of two runs
 * living on: its refusal becomes {@link RejectionCode.StaleChildMessage}, dropped quietly.
 */
export function quietStaleChildMessage(command: Command, transition: Transition): Transition {
  const rejection = transition.rejection;
  if (rejection === null || !goneCodes.has(rejection.code) || command.replyTo) return transition;
  if (!command.requestId.startsWith(PARENT_CLOSE_REQUEST_PREFIX) && !childMessages.has(command.body.type)) return transition;
  return { ...transition, rejection: { code: RejectionCode.StaleChildMessage, message: rejection.message } };
}
