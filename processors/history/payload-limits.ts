/**
 * The per-payload size limit (Temporal's blob size limit, 2 MiB by default, per namespace through
 * `HistoryLimits.maxPayloadBytes`). A payload counts its `data` bytes, as Temporal counts a blob.
 *
 * - A workflow task whose commands carry an oversized payload fails (WorkflowTaskFailed with the
 *   command's `Bad…Attributes` cause, failure code `PayloadTooLarge`) and the run is terminated
 *   with the same message: deterministic code would produce the same payload on every retry, so
 *   Temporal ends the run rather than retry the task for ever.
 * - A worker that cannot even send its completion (a record over the record size limit) reports
 *   WorkflowTaskFailed with cause `PayloadTooLarge`: the run is terminated the same way.
 * - An activity result, heartbeat or failure over the limit fails the activity, not retried
 *   (Temporal's "Complete result exceeds size limit", "Heartbeat details exceeds size limit").
 * - A client start or signal with an oversized argument is refused (`InvalidArgument`) before
 *   anything is written.
 * @module
 */
import type { Payload } from '../../topics/payload/payload.js';
import type { PendingWorkflowTaskInfo } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { WorkflowCommand, WorkflowCommandType } from '../../topics/schemas/command/index.js';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import { limitsFor, type HistoryConfig } from './config.js';
import { appendEvent, engineFailure, reject, type Ctx } from './context.js';
import { terminateRun } from './close-run.js';
import { RejectionCode, type Rejection } from './transition.js';
import { writeAttemptStart } from './workflow-task-attempts.js';

/** Identity recorded in WorkflowExecutionTerminated when a completion carried an oversized payload. */
export const PAYLOAD_LIMIT_IDENTITY = 'logbook-payload-limit';

/** The failure code of a payload over the limit (WorkflowTaskFailed, Failure.code). */
export const PAYLOAD_TOO_LARGE = 'PayloadTooLarge';

/** A payload over the limit: where it was found and how large it is. */
export interface OversizedPayload {
  /** Where the payload sits, e.g. `input[0]` or `failure.details`. */
  path: string;
  bytes: number;
}

/** The command's Temporal cause when its attributes are bad (too large, or breaking a validation rule). */
export const badAttributesCause: Readonly<Record<WorkflowCommandType, WorkflowTaskFailedCause>> = {
  ScheduleActivityTask: 'BadScheduleActivityAttributes',
  RequestCancelActivityTask: 'BadRequestCancelActivityAttributes',
  StartTimer: 'BadStartTimerAttributes',
  CancelTimer: 'BadCancelTimerAttributes',
  CompleteWorkflowExecution: 'BadCompleteWorkflowExecutionAttributes',
  FailWorkflowExecution: 'BadFailWorkflowExecutionAttributes',
  CancelWorkflowExecution: 'BadCancelWorkflowExecutionAttributes',
  RecordMarker: 'BadRecordMarkerAttributes',
  UpsertWorkflowSearchAttributes: 'BadSearchAttributes',
  ModifyWorkflowProperties: 'BadModifyWorkflowPropertiesAttributes',
  ContinueAsNewWorkflowExecution: 'BadContinueAsNewAttributes',
  StartChildWorkflowExecution: 'BadStartChildExecutionAttributes',
  SignalExternalWorkflowExecution: 'BadSignalWorkflowExecutionAttributes',
  RequestCancelExternalWorkflowExecution: 'BadRequestCancelExternalWorkflowExecutionAttributes',
  ProtocolMessage: 'BadUpdateWorkflowExecutionMessage',
};

function isPayload(value: object): value is Payload {
  const candidate = value as Partial<Payload>;
  return Buffer.isBuffer(candidate.data) && typeof candidate.metadata === 'object' && candidate.metadata !== null;
}

/**
 * The first payload over `limit` bytes anywhere in `value` (a command body, any shape), or null.
 * Walking the value rather than naming fields keeps every command covered, new ones included.
 */
export function findOversizedPayload(value: unknown, limit: number, path = ''): OversizedPayload | null {
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  if (isPayload(value)) return value.data.length > limit ? { path: path || 'payload', bytes: value.data.length } : null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
  for (const [at, item] of entries) {
    const found = findOversizedPayload(item, limit, at);
    if (found) return found;
  }
  return null;
}

/** The payload limit of the run's namespace. */
export function payloadLimitOf(ctx: Ctx): number {
  return limitsFor(ctx.config, ctx.state.executionInfo.namespace).maxPayloadBytes;
}

/** Names an oversized payload and the limit, for failures, termination reasons and refusals. */
export function describeOversized(what: string, found: OversizedPayload, limit: number): string {
  return `${what}: payload ${found.path} is ${found.bytes} bytes, over the limit of ${limit} bytes per payload`;
}

/** The first command of a completion that carries an oversized payload: its cause and message. */
export function oversizedCommandPayload(ctx: Ctx, commands: readonly WorkflowCommand[]): { cause: WorkflowTaskFailedCause; message: string } | null {
  const limit = payloadLimitOf(ctx);
  for (const command of commands) {
    const found = findOversizedPayload(command, limit);
    if (found) return { cause: badAttributesCause[command.type], message: describeOversized(`${command.type} command`, found, limit) };
  }
  return null;
}

/**
 * Ends a completion that carried an oversized payload the way Temporal does: the attempt's
 * WorkflowTaskStarted and a WorkflowTaskFailed naming the cause (written for every attempt, so the
 * reason is in history), then the run is terminated with the same message.
 */
export function failTaskAndTerminate(ctx: Ctx, task: PendingWorkflowTaskInfo, oversized: { cause: WorkflowTaskFailedCause; message: string }, identity: string): void {
  const startedEventId = writeAttemptStart(ctx, task, identity);
  appendEvent(ctx, {
    type: 'WorkflowTaskFailed', scheduledEventId: task.scheduledEventId, startedEventId, cause: oversized.cause,
    failure: engineFailure(PAYLOAD_TOO_LARGE, oversized.message), identity,
  });
  ctx.state.pendingWorkflowTask = null;
  terminateRun(ctx, oversized.message, null, PAYLOAD_LIMIT_IDENTITY);
}

/**
 * Refuses a client input (start arguments, memo, signal arguments) carrying an oversized payload
 * with `InvalidArgument`. Returns true if it was refused.
 */
export function refuseOversizedInput(ctx: Ctx, what: string, value: unknown): boolean {
  const rejection = oversizedInputRejection(ctx.config, ctx.state.executionInfo.namespace, what, value);
  if (rejection) reject(ctx, rejection.code, rejection.message);
  return rejection !== null;
}

/** The `InvalidArgument` rejection of a client input to `namespace` carrying an oversized payload, or null. */
export function oversizedInputRejection(config: HistoryConfig, namespace: string, what: string, value: unknown): Rejection | null {
  const limit = limitsFor(config, namespace).maxPayloadBytes;
  const found = findOversizedPayload(value, limit);
  return found ? { code: RejectionCode.InvalidArgument, message: describeOversized(what, found, limit) } : null;
}

/**
 * The non-retryable failure that replaces an activity output over the limit (its result, heartbeat
 * details or failure), or null when it fits. `what` names the output in the message.
 */
export function oversizedActivityOutput(ctx: Ctx, what: string, value: unknown): Failure | null {
  const limit = payloadLimitOf(ctx);
  const found = findOversizedPayload(value, limit);
  return found ? engineFailure(PAYLOAD_TOO_LARGE, describeOversized(what, found, limit)) : null;
}
