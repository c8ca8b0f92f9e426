/**
 * Update protocol messages between the host and the engine: the sandbox's update commands become
 * `ProtocolMessage` workflow commands naming the request they answer, and the engine's
 * WorkflowExecutionUpdateAccepted events become update jobs again on replay.
 * @module
 */
import type { Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';
import type { SandboxCommand } from '../workflow/bridge.js';
import { failureFromInfo } from './conversions.js';

type UpdateCommand = Extract<SandboxCommand, { type: 'UpdateAcceptance' | 'UpdateRejection' | 'UpdateResponse' }>;

/** The ProtocolMessage that carries one of the sandbox's update commands. */
export function updateProtocolCommand(command: UpdateCommand, message: UpdateRequestMessage): WorkflowCommand {
  const protocolInstanceId = message.protocolInstanceId;
  switch (command.type) {
    case 'UpdateAcceptance':
      return {
        type: 'ProtocolMessage', messageId: `${protocolInstanceId}/accept`, protocolInstanceId,
        body: { type: 'UpdateAcceptance', acceptedRequestMessageId: message.messageId, acceptedRequestSequencingEventId: message.sequencingEventId, acceptedRequest: message.request },
      };
    case 'UpdateRejection':
      return {
        type: 'ProtocolMessage', messageId: `${protocolInstanceId}/reject`, protocolInstanceId,
        body: {
          type: 'UpdateRejection', rejectedRequestMessageId: message.messageId, rejectedRequestSequencingEventId: message.sequencingEventId,
          rejectedRequest: message.request, failure: failureFromInfo(command.failure),
        },
      };
    case 'UpdateResponse':
      return {
        type: 'ProtocolMessage', messageId: `${protocolInstanceId}/response`, protocolInstanceId,
        body: { type: 'UpdateResponse', result: command.failure === null ? (command.result as Payload) : null, failure: command.failure === null ? null : failureFromInfo(command.failure) },
      };
  }
}

/** True for the update events a completion writes among its command events (they answer protocol messages). */
export function isUpdateEvent(event: HistoryEvent): boolean {
  const type = event.attributes.type;
  return type === 'WorkflowExecutionUpdateAccepted' || type === 'WorkflowExecutionUpdateCompleted';
}

/** The request message an accepted event records (what the live task delivered). */
export function messageOfAccepted(event: HistoryEvent<'WorkflowExecutionUpdateAccepted'>): UpdateRequestMessage {
  const a = event.attributes;
  return { messageId: a.acceptedRequestMessageId, protocolInstanceId: a.protocolInstanceId, sequencingEventId: a.acceptedRequestSequencingEventId, request: a.acceptedRequest };
}
