/**
 * Command v1 — the value of `logbook.commands` and `logbook.commands.internal`: every input to a
 * shard. An envelope (request id, target run, reply address) and a body, a union of one record
 * per command (`logbook.<Type>Request`). In TypeScript the body is a discriminated union on `type`.
 * @module
 */
import { field, optional, record, type Tagged, type TaggedUnion } from '../avro-schema.js';
import { replyToSchema, type ReplyTo } from '../common/v1-records.js';
import { defineSchema } from '../define-schema.js';
import { clientRequestSchemas, type ClientRequestMap } from './v1-client-requests.js';
import { internalRequestSchemas, type InternalRequestMap } from './v1-internal-requests.js';
import { taskRequestSchemas, type TaskRequestMap } from './v1-task-requests.js';

/** Command type → its body (without the `type` tag). */
export interface CommandBodyMap extends ClientRequestMap, TaskRequestMap, InternalRequestMap {}

/** Name of a shard command, e.g. `SignalWorkflowExecution`. */
export type CommandType = keyof CommandBodyMap;

/** Every shard command type, as a const object. */
export const CommandType = {
  StartWorkflowExecution: 'StartWorkflowExecution',
  SignalWorkflowExecution: 'SignalWorkflowExecution',
  SignalWithStartWorkflowExecution: 'SignalWithStartWorkflowExecution',
  RequestCancelWorkflowExecution: 'RequestCancelWorkflowExecution',
  TerminateWorkflowExecution: 'TerminateWorkflowExecution',
  UpdateWorkflowExecution: 'UpdateWorkflowExecution',
  AwaitWorkflowExecutionResult: 'AwaitWorkflowExecutionResult',
  WorkflowTaskStarted: 'WorkflowTaskStarted',
  WorkflowTaskCompleted: 'WorkflowTaskCompleted',
  WorkflowTaskFailed: 'WorkflowTaskFailed',
  ActivityTaskStarted: 'ActivityTaskStarted',
  ActivityTaskCompleted: 'ActivityTaskCompleted',
  ActivityTaskFailed: 'ActivityTaskFailed',
  ActivityTaskHeartbeat: 'ActivityTaskHeartbeat',
  ActivityTaskCanceled: 'ActivityTaskCanceled',
  RecordChildExecutionStarted: 'RecordChildExecutionStarted',
  RecordChildExecutionStartFailed: 'RecordChildExecutionStartFailed',
  RecordChildExecutionCompleted: 'RecordChildExecutionCompleted',
  RecordSignalExternalWorkflowExecutionResult: 'RecordSignalExternalWorkflowExecutionResult',
  RecordRequestCancelExternalWorkflowExecutionResult: 'RecordRequestCancelExternalWorkflowExecutionResult',
} as const satisfies { [K in CommandType]: K };

/** A command body: `{ type: 'SignalWorkflowExecution', signalName, … }`. */
export type CommandBody = TaggedUnion<CommandBodyMap>;

/** The body of one command type (distributes over a union of types). */
export type CommandBodyOf<K extends CommandType> = K extends CommandType ? Tagged<K, CommandBodyMap[K]> : never;

/**
 * One input to a shard, keyed `ns/workflowId` on the command topics.
 *
 * @example
 * const c: Command<'SignalWorkflowExecution'> = { requestId, namespace: 'default',
 *   workflowId: 'order-42', runId: null, replyTo: null,
 *   body: { type: 'SignalWorkflowExecution', signalName: 'packed', input: [], identity: 'cli',
 *     header: {}, externalInitiator: null, childWorkflowOnly: false } };
 */
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

/** Avro schema of `logbook.Command`, version 1. Frozen. */
export const commandSchemaV1 = defineSchema(
  record(
    'logbook.Command',
    [
      field('requestId', 'string'),
      field('namespace', 'string'),
      field('workflowId', 'string'),
      optional('runId', 'string'),
      optional('replyTo', replyToSchema),
      field('body', [...clientRequestSchemas, ...taskRequestSchemas, ...internalRequestSchemas]),
    ],
    'An input to the shard that owns namespace/workflowId.',
  ),
);
