/**
 * Reply v1 — the value of `logbook.replies` (key: the request id): the answer to a command or
 * query, routed back to the gateway that asked.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { enumOf, field, optional, record, symbolsObject } from '../avro-schema.js';
import { workflowExecutionStatusSchema, type WorkflowExecutionStatus } from '../common/v1-enums.js';
import { failureSchema, payloadSchema, type Failure } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';

const replyKindSymbols = ['StartAccepted', 'AlreadyStarted', 'Result', 'QueryAnswer', 'UpdateResult', 'Error'] as const;
/** What a reply answers. */
export const ReplyKind = symbolsObject(replyKindSymbols);
/** @see ReplyKind */
export type ReplyKind = (typeof replyKindSymbols)[number];

/** An answer to one request. */
export interface Reply {
  /** The `replyTo.requestId` of the command (the gateway's correlation id). */
  requestId: string;
  kind: ReplyKind;
  /** The run concerned (the new or existing run for starts, the closed run for results). */
  runId: string | null;
  /** Result, query answer or update result. */
  payload: Payload | null;
  /** Set for Error, a failed update and a run that did not complete. */
  failure: Failure | null;
  /** For Result: how the run closed. */
  executionStatus: WorkflowExecutionStatus | null;
}

/** Avro schema of `logbook.Reply`, version 1. Frozen. */
export const replySchemaV1 = defineSchema(
  record('logbook.Reply', [
    field('requestId', 'string'),
    field('kind', enumOf('logbook.ReplyKind', replyKindSymbols)),
    optional('runId', 'string'),
    optional('payload', payloadSchema),
    optional('failure', failureSchema),
    optional('executionStatus', workflowExecutionStatusSchema),
  ]),
);
