import type { Command } from '../../topics/schemas/command/index.js';
import type { Transition } from '../history/index.js';

/**
 * Commands whose caller waits only for "applied": the engine acknowledges them when they commit
 * (an activity claim is awaited only for a task that may be a redelivery, see ClaimConfirmer).
 */
const ACKNOWLEDGED = new Set(['SignalWorkflowExecution', 'RequestCancelWorkflowExecution', 'TerminateWorkflowExecution', 'ActivityTaskStarted']);

/** Adds the `Accepted` reply of an applied signal, cancel request, termination or claim that asked for one. */
export function acknowledged(command: Command, transition: Transition): Transition {
  const replyTo = command.replyTo;
  if (!replyTo || transition.rejection || !ACKNOWLEDGED.has(command.body.type)) return transition;
  if (transition.replies.some((r) => r.requestId === replyTo.requestId)) return transition;
  const runId = transition.state?.executionInfo.runId ?? command.runId;
  return { ...transition, replies: [...transition.replies, { requestId: replyTo.requestId, kind: 'Accepted', runId, payload: null, failure: null, executionStatus: null }] };
}
