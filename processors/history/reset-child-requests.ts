/**
 * The answer to a `childWorkflowOnly` signal or cancellation request that a run sent to a child it
 * inherited through a reset: the request named the run the child knows as its parent as initiator
 * (`reset-children.ts`), so the child's shard addresses the answer to that run. The answer's
 * request id derives from the id of the request, which names the run that sent it and the
 * initiated event; that proves the answer is for the current run's own request.
 * @module
 */
import type { Command } from '../../topics/schemas/command/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { externalRequestId, externalResultRequestId } from './external-requests.js';

/**
 * True if `command` is the answer to a signal or cancellation request the current run sent (its
 * request id says so), whatever run it is addressed to; the command then applies to the current run.
 */
export function answersOwnExternalRequest(state: MutableStateSnapshot, command: Command): boolean {
  const body = command.body;
  if (body.type !== 'RecordSignalExternalWorkflowExecutionResult' && body.type !== 'RecordRequestCancelExternalWorkflowExecutionResult') return false;
  const kind = body.type === 'RecordSignalExternalWorkflowExecutionResult' ? 'signal' : 'cancel';
  return command.requestId === externalResultRequestId(externalRequestId(kind, state.executionInfo.runId, body.initiatedEventId));
}
