/**
 * Reply v2 — adds the kind `Accepted`: the acknowledgement of a signal, cancel request or
 * termination, committed in the same transaction as the command's effect. The enum carries a
 * default (`Error`) so that a reader of this version meets a later kind it does not know as an
 * error rather than failing to decode.
 * @module
 */
import { enumOf, field, optional, record, symbolsObject } from '../avro-schema.js';
import { workflowExecutionStatusSchema } from '../common/v1-enums.js';
import { failureSchema, payloadSchema } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import type { Reply as ReplyV1 } from './v1.js';

const replyKindSymbols = ['StartAccepted', 'AlreadyStarted', 'Result', 'QueryAnswer', 'UpdateResult', 'Error', 'Accepted'] as const;
/** What a reply answers (as of v2). */
export const ReplyKind = symbolsObject(replyKindSymbols);
/** @see ReplyKind */
export type ReplyKind = (typeof replyKindSymbols)[number];

/** An answer to one request (as of v2). */
export interface Reply extends Omit<ReplyV1, 'kind'> {
  kind: ReplyKind;
}

/** Avro schema of `logbook.Reply`, version 2. Frozen. */
export const replySchemaV2 = defineSchema(
  record('logbook.Reply', [
    field('requestId', 'string'),
    field('kind', { ...enumOf('logbook.ReplyKind', replyKindSymbols), default: 'Error' }),
    optional('runId', 'string'),
    optional('payload', payloadSchema),
    optional('failure', failureSchema),
    optional('executionStatus', workflowExecutionStatusSchema),
  ]),
);
