/**
 * Command v1: the update protocol messages a workflow sends back about an update (Temporal's
 * `update.v1` Acceptance / Rejection / Response). Records `logbook.Update<Kind>Message`.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record, type TaggedUnion } from '../avro-schema.js';
import {
  failureSchema,
  payloadSchema,
  updateRequestSchema,
  type Failure,
  type UpdateRequest,
} from '../common/v1-records.js';

/** Kind → attributes of the update protocol messages. */
export interface UpdateProtocolMessageMap {
  /** The validator accepted the update; the engine records WorkflowExecutionUpdateAccepted. */
  UpdateAcceptance: {
    acceptedRequestMessageId: string;
    acceptedRequestSequencingEventId: number;
    acceptedRequest: UpdateRequest;
  };
  /** The validator rejected it; nothing is written to history, the caller gets the failure. */
  UpdateRejection: {
    rejectedRequestMessageId: string;
    rejectedRequestSequencingEventId: number;
    rejectedRequest: UpdateRequest;
    failure: Failure;
  };
  /** The handler finished; exactly one of result and failure is set. */
  UpdateResponse: {
    result: Payload | null;
    failure: Failure | null;
  };
}

/** One update protocol message: `{ type: 'UpdateAcceptance', … }`. */
export type UpdateProtocolMessage = TaggedUnion<UpdateProtocolMessageMap>;

/** Avro union of the update protocol messages, in frozen branch order. */
export const updateProtocolMessageSchemas = [
  record('logbook.UpdateAcceptanceMessage', [
    field('acceptedRequestMessageId', 'string'),
    field('acceptedRequestSequencingEventId', 'long'),
    field('acceptedRequest', updateRequestSchema),
  ]),
  record('logbook.UpdateRejectionMessage', [
    field('rejectedRequestMessageId', 'string'),
    field('rejectedRequestSequencingEventId', 'long'),
    field('rejectedRequest', updateRequestSchema),
    field('failure', failureSchema),
  ]),
  record('logbook.UpdateResponseMessage', [optional('result', payloadSchema), optional('failure', failureSchema)]),
] as const;
