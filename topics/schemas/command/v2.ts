/**
 * Command v2 — v1 plus the `ResetWorkflowExecution` body (appended at the end of the body union,
 * so v1 records decode with the v2 reader). The envelope is unchanged.
 * @module
 */
import { field, optional, record, type Tagged, type TaggedUnion } from '../avro-schema.js';
import { replyToSchema, type ReplyTo } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { clientRequestSchemas } from './v1-client-requests.js';
import { internalRequestSchemas } from './v1-internal-requests.js';
import { taskRequestSchemas } from './v1-task-requests.js';
import { resetRequestSchemas, type ResetRequestMap } from './v2-reset-request.js';
import { CommandType as CommandTypeV1, type CommandBodyMap as CommandBodyMapV1 } from './v1.js';

/** Command type → its body (without the `type` tag), as of v2. */
export interface CommandBodyMap extends CommandBodyMapV1, ResetRequestMap {}

/** Name of a shard command, e.g. `SignalWorkflowExecution`. */
export type CommandType = keyof CommandBodyMap;

/** Every shard command type, as a const object, in body-union order. */
export const CommandType = {
  ...CommandTypeV1,
  ResetWorkflowExecution: 'ResetWorkflowExecution',
} as const satisfies { [K in CommandType]: K };

/** A command body: `{ type: 'SignalWorkflowExecution', signalName, … }`. */
export type CommandBody = TaggedUnion<CommandBodyMap>;

/** The body of one command type (distributes over a union of types). */
export type CommandBodyOf<K extends CommandType> = K extends CommandType ? Tagged<K, CommandBodyMap[K]> : never;

/** One input to a shard, keyed `ns/workflowId` on the command topics (see v1 for the fields). */
export interface Command<K extends CommandType = CommandType> {
  /** Unique per logical request; the engine deduplicates on it. */
  requestId: string;
  namespace: string;
  workflowId: string;
  /** Target run; null = the current run (for a start: see the body's `runId`). */
  runId: string | null;
  /** Where the gateway waits for an answer on `logbook.replies`; null = fire and forget. */
  replyTo: ReplyTo | null;
  body: CommandBodyOf<K>;
}

/** Avro schema of `logbook.Command`, version 2. Frozen. */
export const commandSchemaV2 = defineSchema(
  record(
    'logbook.Command',
    [
      field('requestId', 'string'),
      field('namespace', 'string'),
      field('workflowId', 'string'),
      optional('runId', 'string'),
      optional('replyTo', replyToSchema),
      field('body', [...clientRequestSchemas, ...taskRequestSchemas, ...internalRequestSchemas, ...resetRequestSchemas]),
    ],
    'An input to the shard that owns namespace/workflowId.',
  ),
);
