/**
 * Codec-required task queues (issue 15): a namespace can require that every payload stored for a
 * task queue is encrypted by the SDK's payload codec (`topics/payload/encrypted-payload.ts`:
 * encoding `binary/encrypted`), so a new workflow cannot put personal data in history, snapshots
 * or task topics by accident. The engine enforces it here, whatever door the input came through
 * (gateway, Kafka-native client, command topic, ingress, schedules):
 *
 * - a client input (start, signal-with-start, signal, update, update-with-start) with a plaintext
 *   payload is refused with `PlaintextPayloadRefused` (HTTP 400) before anything is written;
 * - a workflow task whose commands carry one fails with the command's `Bad…Attributes` cause and
 *   failure code `PlaintextPayloadRefused`, and is retried: the run goes on once a worker with the
 *   codec takes it (unlike an oversized payload, a fixed worker does produce another payload);
 * - an activity result, failure, heartbeat or cancellation with one fails the activity, not
 *   retried; a child's result, failure or cancellation details with one, for a parent on a
 *   codec-required queue, is recorded as the child failing, not retried (the same remedy: the
 *   output never reaches the parent's history, and the parent's code sees why).
 *
 * What passes: encrypted payloads, `binary/null` payloads with no data (an absent value: nothing
 * to protect), the header fields of commands and client requests (interceptor context such as the
 * update-with-start header, not user data; only those fields, not a memo entry that happens to be
 * called `header`) and the SDK's bookkeeping keys in its own markers ({@link MARKER_BOOKKEEPING}:
 * sequence numbers, patch ids… in plain JSON so that replay tools read them without the codec).
 * A local activity's result and a side effect's value in a marker are checked like any payload.
 * A queue is codec-required when its namespace lists it, or lists `*`; `*` leaves out the
 * engine's internal scheduler queue, whose payloads are the engine's own JSON (a schedule's
 * action is checked against its target queue when the schedule is created or updated).
 * @module
 */
import { SCHEDULER_TASK_QUEUE } from '../../topics/validation/internal-task-queues.js';
import { isEncryptedPayload } from '../../topics/payload/encrypted-payload.js';
import { isPayload } from '../../topics/payload/payload-map.js';
import { payloadEncodingOf, PayloadEncoding, type Payload } from '../../topics/payload/payload.js';
import type { CommandBodyOf, WorkflowCommand, WorkflowCommandAttributesMap } from '../../topics/schemas/command/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import { EVERY_TASK_QUEUE } from '../../topics/schemas/namespace/index.js';
import type { CommandProblem } from './command-validation.js';
import { guardsFor, type HistoryConfig } from './config.js';
import { engineFailure, reject, type Ctx } from './context.js';
import { badAttributesCause } from './payload-limits.js';
import { RejectionCode, type Rejection } from './transition.js';

/** The rejection and failure code of a plaintext payload for a codec-required task queue. */
export const PLAINTEXT_PAYLOAD_REFUSED = RejectionCode.PlaintextPayloadRefused;

/**
 * The header fields, by their path in a workflow command or a client request body: `header` of
 * the commands and of a start, `start.header` and `signalHeader` of a signal-with-start. Paths,
 * not key names, so a memo entry or a nested field called `header` is checked like any payload.
 */
const HEADER_PATHS: ReadonlySet<string> = new Set(['header', 'start.header', 'signalHeader']);

/**
 * The SDK's markers and, for each, the detail keys that are its bookkeeping, written as plain JSON
 * by `sdk/replay/*-markers.ts` (the engine may not import the SDK; `codec-required.test.ts` runs
 * the SDK's writers against this list). Every other detail, such as a local activity's `result` or
 * a side effect's `value`, is the workflow's data.
 */
export const MARKER_BOOKKEEPING: Readonly<Record<string, readonly string[]>> = {
  'sdk.patch': ['patchId', 'deprecated'],
  'sdk.local-activity': ['seq', 'activityType', 'attempt', 'backoffMs', 'retryState'],
  'sdk.side-effect': ['seq'],
};

/** A plaintext payload: where it sits and how it is encoded. */
export interface PlaintextPayload {
  /** e.g. `input[0]`, `memo.note`. */
  path: string;
  /** Its `encoding` metadata, or `no encoding`. */
  encoding: string;
}

/**
 * Whether a namespace whose `codecRequiredTaskQueues` is `queues` requires the codec for
 * `taskQueue`. `*` does not reach the internal scheduler queue (see the module comment); naming it
 * does.
 */
export function listRequiresCodec(queues: readonly string[], taskQueue: string): boolean {
  return queues.includes(taskQueue) || (queues.includes(EVERY_TASK_QUEUE) && taskQueue !== SCHEDULER_TASK_QUEUE);
}

/** Whether payloads for `taskQueue` of `namespace` must be encrypted. */
export function requiresCodec(config: HistoryConfig, namespace: string, taskQueue: string): boolean {
  return listRequiresCodec(guardsFor(config, namespace).codecRequiredTaskQueues, taskQueue);
}

/** Encrypted, or an absent value: `binary/null` carries no data, so one with data is refused too. */
function passes(payload: Payload): boolean {
  return isEncryptedPayload(payload) || (payloadEncodingOf(payload) === PayloadEncoding.Null && payload.data.length === 0);
}

/**
 * The first payload in `value` (a command body, any shape) that is neither encrypted nor an empty
 * `binary/null`, or null. Walking the value rather than naming fields keeps new commands covered;
 * `skipped` lists the paths not to walk (by default the header fields).
 */
export function findPlaintextPayload(value: unknown, skipped: ReadonlySet<string> = HEADER_PATHS): PlaintextPayload | null {
  return findBelow(value, '', skipped);
}

function findBelow(value: unknown, path: string, skipped: ReadonlySet<string>): PlaintextPayload | null {
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  if (isPayload(value)) return passes(value) ? null : { path: path || 'payload', encoding: payloadEncodingOf(value) ?? 'no encoding' };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
  for (const [at, item] of entries) {
    const found = skipped.has(at) ? null : findBelow(item, at, skipped);
    if (found) return found;
  }
  return null;
}

/** The paths a marker command does not check: its header and its bookkeeping details, if it is one of the SDK's markers. */
function markerSkips(marker: WorkflowCommandAttributesMap['RecordMarker']): ReadonlySet<string> {
  const bookkeeping = Object.hasOwn(MARKER_BOOKKEEPING, marker.markerName) ? MARKER_BOOKKEEPING[marker.markerName]! : [];
  return new Set([...HEADER_PATHS, ...bookkeeping.map((key) => `details.${key}`)]);
}

/** The message naming the rule, the queue, what carried the payload and its encoding. */
export function describePlaintext(namespace: string, taskQueue: string, what: string, found: PlaintextPayload): string {
  return `task queue ${taskQueue} of namespace ${namespace} requires encrypted payloads (codec-required); ${what}: payload ${found.path} is ${found.encoding}, not ${PayloadEncoding.Null} (empty) or binary/encrypted`;
}

/** The first of `taskQueues` of `namespace` that requires the codec, or null. */
function codecRequiredQueue(config: HistoryConfig, namespace: string, taskQueues: readonly string[]): string | null {
  return taskQueues.find((q) => requiresCodec(config, namespace, q)) ?? null;
}

/**
 * The `PlaintextPayloadRefused` rejection of a client input for the task queues it is stored for
 * (a start's queue; a signal's or update's run queue), or null.
 */
export function plaintextInputRejection(config: HistoryConfig, namespace: string, taskQueues: readonly string[], what: string, value: unknown): Rejection | null {
  const queue = codecRequiredQueue(config, namespace, taskQueues);
  if (queue === null) return null;
  const found = findPlaintextPayload(value);
  return found ? { code: PLAINTEXT_PAYLOAD_REFUSED, message: describePlaintext(namespace, queue, what, found) } : null;
}

/** Refuses a client input to the run in `ctx` that carries a plaintext payload; true if refused. */
export function refusePlaintextInput(ctx: Ctx, what: string, value: unknown): boolean {
  const { namespace, taskQueue } = ctx.state.executionInfo;
  const rejection = plaintextInputRejection(ctx.config, namespace, [taskQueue], what, value);
  if (rejection) reject(ctx, rejection.code, rejection.message);
  return rejection !== null;
}

/** Where a workflow command sends its payloads besides the run's own history: an activity's, a child's or the next run's queue. */
function destinationOf(ctx: Ctx, command: WorkflowCommand): { namespace: string; taskQueue: string } {
  const { namespace, taskQueue } = ctx.state.executionInfo;
  switch (command.type) {
    case 'ScheduleActivityTask':
    case 'ContinueAsNewWorkflowExecution':
      return { namespace, taskQueue: command.taskQueue ?? taskQueue };
    case 'StartChildWorkflowExecution':
      return { namespace: command.namespace ?? namespace, taskQueue: command.taskQueue ?? taskQueue };
    default:
      return { namespace, taskQueue };
  }
}

function commandPlaintextProblem(ctx: Ctx, command: WorkflowCommand, namespace: string, taskQueue: string): CommandProblem | null {
  if (!requiresCodec(ctx.config, namespace, taskQueue)) return null;
  const found = command.type === 'RecordMarker' ? findPlaintextPayload(command, markerSkips(command)) : findPlaintextPayload(command);
  if (found === null) return null;
  return { cause: badAttributesCause[command.type], code: PLAINTEXT_PAYLOAD_REFUSED, message: describePlaintext(namespace, taskQueue, `${command.type} command`, found) };
}

/**
 * The first command of a completion that carries a plaintext payload where a codec-required queue
 * would store it (the run's history, or the queue the command sends it to), as a problem that
 * fails the workflow task; null if there is none.
 */
export function plaintextCommandProblem(ctx: Ctx, commands: readonly WorkflowCommand[]): CommandProblem | null {
  const run = ctx.state.executionInfo;
  for (const command of commands) {
    const target = destinationOf(ctx, command);
    const problem = commandPlaintextProblem(ctx, command, run.namespace, run.taskQueue) ?? commandPlaintextProblem(ctx, command, target.namespace, target.taskQueue);
    if (problem) return problem;
  }
  return null;
}

/**
 * The non-retryable failure that replaces an activity output (result, failure, heartbeat details,
 * cancellation details) carrying a plaintext payload, when the run's or the activity's queue
 * requires the codec; null otherwise.
 */
export function plaintextActivityOutput(ctx: Ctx, activity: PendingActivityInfo, what: string, value: unknown): Failure | null {
  const { namespace, taskQueue } = ctx.state.executionInfo;
  const queue = codecRequiredQueue(ctx.config, namespace, [taskQueue, activity.taskQueue]);
  const found = queue === null ? null : findPlaintextPayload(value);
  return queue === null || found === null ? null : engineFailure(PLAINTEXT_PAYLOAD_REFUSED, describePlaintext(namespace, queue, what, found));
}

/**
 * The non-retryable failure that replaces how a child ended (its result, failure or cancellation
 * details) when that carries a plaintext payload and the parent's queue requires the codec; null
 * otherwise. The child's own queue is not the question: a child on another queue or namespace may
 * store plaintext in its own history, not in its parent's.
 */
export function plaintextChildOutcome(ctx: Ctx, body: CommandBodyOf<'RecordChildExecutionCompleted'>): Failure | null {
  const { namespace, taskQueue } = ctx.state.executionInfo;
  if (!requiresCodec(ctx.config, namespace, taskQueue)) return null;
  const found = findPlaintextPayload({ result: body.result, failure: body.failure, details: body.details });
  const child = `${body.workflowExecution.workflowId} (run ${body.workflowExecution.runId ?? 'unknown'})`;
  return found === null ? null : engineFailure(PLAINTEXT_PAYLOAD_REFUSED, describePlaintext(namespace, taskQueue, `the outcome (${body.status}) of child workflow ${child}`, found));
}
