/**
 * Validation of a completion's update protocol messages: each must follow the update's life —
 * accept or reject an admitted update once, respond once to an accepted one (possibly accepted
 * earlier in the same completion). Anything else fails the task (BadUpdateWorkflowExecutionMessage).
 * @module
 */
import type { WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { Tagged } from '../../topics/schemas/avro-schema.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { inFlightUpdates } from './update-registry.js';

/** Where each update in flight stands, as the commands of one completion move it on. */
export type UpdateStages = Map<string, 'admitted' | 'accepted' | 'done'>;

/** The stages of the run's updates in flight before the completion's commands. */
export function updateStagesOf(state: MutableStateSnapshot): UpdateStages {
  return new Map(inFlightUpdates(state).map((u) => [u.request.updateId, u.acceptedEventId === null ? 'admitted' : 'accepted'] as const));
}

/** The problem with one protocol message (null if it may be applied); advances `stages`. */
export function protocolMessageProblem(stages: UpdateStages, command: Tagged<'ProtocolMessage', WorkflowCommandAttributesMap['ProtocolMessage']>): string | null {
  const updateId = command.protocolInstanceId;
  const stage = stages.get(updateId);
  const kind = command.body.type;
  const expected = kind === 'UpdateResponse' ? 'accepted' : 'admitted';
  if (stage !== expected) {
    const now = stage === undefined ? 'not in flight in this run' : stage === 'done' ? 'already answered in this completion' : `${stage}`;
    return `${kind} for update '${updateId}': the update is ${now}, it must be ${expected}`;
  }
  stages.set(updateId, kind === 'UpdateAcceptance' ? 'accepted' : 'done');
  return null;
}
