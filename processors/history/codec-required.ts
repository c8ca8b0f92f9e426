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
 * - an activity result, failure, heartbeat or cancellation with one fails the activity, not retried.
 *
 * What passes: encrypted payloads, `binary/null` payloads (an absent value: nothing to protect),
 * headers (interceptor context such as the update-with-start header, not user data) and marker
 * details (the SDK keeps its own bookkeeping there as plain JSON, e.g. patch ids; side-effect and
 * local-activity values in them are the codec's to encrypt). A queue is codec-required when its
 * namespace lists it, or lists `*`.
 * @module
 */
import { isEncryptedPayload } from '../../topics/payload/encrypted-payload.js';
import { payloadEncodingOf, PayloadEncoding, type Payload } from '../../topics/payload/payload.js';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { PendingActivityInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { CommandProblem } from './command-validation.js';
import { guardsFor, type HistoryConfig } from './config.js';
import { engineFailure, reject, type Ctx } from './context.js';
import { badAttributesCause } from './payload-limits.js';
import { RejectionCode, type Rejection } from './transition.js';

/** The rejection and failure code of a plaintext payload for a codec-required task queue. */
export const PLAINTEXT_PAYLOAD_REFUSED = RejectionCode.PlaintextPayloadRefused;

/** The entry of `codecRequiredTaskQueues` that stands for every task queue of the namespace. */
const EVERY_QUEUE = '*';

/** Keys whose payloads are not user data (see the module comment). */
const UNCHECKED_KEYS: ReadonlySet<string> = new Set(['header', 'signalHeader']);

/** A plaintext payload: where it sits and how it is encoded. */
export interface PlaintextPayload {
  /** e.g. `input[0]`, `memo.note`. */
  path: string;
  /** Its `encoding` metadata, or `no encoding`. */
  encoding: string;
}

/** Whether payloads for `taskQueue` of `namespace` must be encrypted. */
export function requiresCodec(config: HistoryConfig, namespace: string, taskQueue: string): boolean {
  const queues = guardsFor(config, namespace).codecRequiredTaskQueues;
  return queues.includes(taskQueue) || queues.includes(EVERY_QUEUE);
}

function isPayload(value: object): value is Payload {
  const candidate = value as Partial<Payload>;
  return Buffer.isBuffer(candidate.data) && typeof candidate.metadata === 'object' && candidate.metadata !== null;
}

function passes(payload: Payload): boolean {
  return isEncryptedPayload(payload) || payloadEncodingOf(payload) === PayloadEncoding.Null;
}

/**
 * The first payload in `value` (a command body, any shape) that is neither encrypted nor null, or
 * null. Walking the value rather than naming fields keeps new commands covered.
 */
export function findPlaintextPayload(value: unknown, path = ''): PlaintextPayload | null {
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  if (isPayload(value)) return passes(value) ? null : { path: path || 'payload', encoding: payloadEncodingOf(value) ?? 'no encoding' };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.entries(value).filter(([key]) => !UNCHECKED_KEYS.has(key)).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
  for (const [at, item] of entries) {
    const found = findPlaintextPayload(item, at);
    if (found) return found;
  }
  return null;
}

/** The message naming the rule, the queue, what carried the payload and its encoding. */
export function describePlaintext(namespace: string, taskQueue: string, what: string, found: PlaintextPayload): string {
  return `task queue ${taskQueue} of namespace ${namespace} requires encrypted payloads (codec-required); ${what}: payload ${found.path} is ${found.encoding}, not ${PayloadEncoding.Null} or binary/encrypted`;
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
  const found = requiresCodec(ctx.config, namespace, taskQueue) ? findPlaintextPayload(command) : null;
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
    if (command.type === 'RecordMarker') continue;
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
