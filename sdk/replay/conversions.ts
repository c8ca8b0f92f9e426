/**
 * Host-side conversions at the sandbox boundary: sandbox commands → `WorkflowCommand`s,
 * failures ↔ `logbook.Failure`, payloads ↔ values (with the worker's data converter).
 * @module
 */
import type { DataConverter, Payload } from '../../topics/payload/index.js';
import type { WorkflowCommand } from '../../topics/schemas/command/v1-workflow-commands.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { FailureInfo, SandboxCommand } from '../workflow/bridge.js';
import { failureInfoFromError } from '../workflow/failure-info.js';
import { copyIntoRealm } from '../workflow/realm-copy.js';
import { patchMarkerCommand } from './patch-markers.js';
import { sideEffectMarkerCommand } from './side-effect-markers.js';
import { startChildCommand } from './child-commands.js';
import { updateProtocolCommand } from './update-messages.js';
import type { UpdateRequestMessage } from '../../topics/schemas/workflow-task/index.js';

/** `Failure.source` of failures raised by workflow code. */
export const FAILURE_SOURCE = 'LogbookTypeScriptSDK';

/**
 * Prepares a sandbox value for the host's converters: a typed array from the sandbox realm is
 * not `instanceof Uint8Array` here, so it is copied into a host one. Everything else is passed
 * as is (JSON encoding works across realms and keeps `toJSON`).
 */
export function toHostValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof Uint8Array)) {
    return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  return value;
}

/** Decodes payloads (arguments); `undefined` for a missing payload. */
export function decodePayloads(converter: DataConverter, payloads: readonly Payload[]): unknown[] {
  return payloads.map((p) => converter.fromPayload(p));
}

/** Decodes an optional payload (a result); `undefined` when absent. */
export function decodeOptional(converter: DataConverter, payload: Payload | null): unknown {
  return payload === null ? undefined : converter.fromPayload(payload);
}

/** A failure from workflow code as a `logbook.Failure` (its details were encoded in the sandbox, as one payload). */
export function failureFromInfo(info: FailureInfo): Failure {
  return {
    message: String(info.message),
    source: FAILURE_SOURCE,
    stackTrace: String(info.stack),
    code: String(info.code),
    nonRetryable: Boolean(info.nonRetryable),
    details: (info.encodedDetails ?? null) as Payload | null,
    cause: info.cause === null ? null : failureFromInfo(info.cause),
  };
}

/**
 * Any error as a `logbook.Failure`, with the conventions workflow code expects (for the activity
 * worker: an `ApplicationFailure`'s `type` becomes the `code`, its details one payload of the list).
 * @example
 * const failure = failureFromError(err, dataConverter); // for ActivityTaskFailed
 */
export function failureFromError(error: unknown, converter: DataConverter): Failure {
  return failureFromInfo(failureInfoFromError(error, (value) => converter.toPayload(toHostValue(value))));
}

/** A recorded failure as the sandbox sees it (details decoded back into a list). */
export function failureInfoFromFailure(failure: Failure, converter: DataConverter): FailureInfo {
  let details: unknown[] = [];
  if (failure.details !== null) {
    const decoded = converter.fromPayload(failure.details);
    details = Array.isArray(decoded) ? decoded : [decoded];
  }
  return {
    message: failure.message,
    code: failure.code,
    stack: failure.stackTrace,
    nonRetryable: failure.nonRetryable,
    details,
    cause: failure.cause === null ? null : failureInfoFromFailure(failure.cause, converter),
  };
}

/** What converting a sandbox command needs from the run. */
export interface CommandContext {
  converter: DataConverter;
  /** The `ActivityTaskScheduled` event id of an activity, by sequence number. */
  scheduledEventIdOf(seq: number): number;
  /** The request message of an update delivered to the run (live, or from its accepted event). */
  updateOf(updateId: string): UpdateRequestMessage;
}

/** Turns a command the sandbox produced into the `WorkflowCommand` sent to the engine (local activities are run by the worker instead). */
export function toWorkflowCommand(command: Exclude<SandboxCommand, { type: 'ScheduleLocalActivity' }>, context: CommandContext): WorkflowCommand {
  switch (command.type) {
    case 'ScheduleActivityTask': {
      const o = command.options;
      return {
        type: 'ScheduleActivityTask',
        activityId: String(command.seq),
        activityType: String(command.activityType),
        taskQueue: o.taskQueue,
        header: {},
        input: Array.from(command.args) as Payload[],
        scheduleToCloseTimeoutMs: o.scheduleToCloseTimeoutMs,
        scheduleToStartTimeoutMs: o.scheduleToStartTimeoutMs,
        startToCloseTimeoutMs: o.startToCloseTimeoutMs,
        heartbeatTimeoutMs: o.heartbeatTimeoutMs,
        retryPolicy: o.retryPolicy === null ? null : copyIntoRealm(o.retryPolicy),
      };
    }
    case 'RequestCancelActivityTask':
      return { type: 'RequestCancelActivityTask', scheduledEventId: context.scheduledEventIdOf(command.seq) };
    case 'StartTimer':
      return { type: 'StartTimer', timerId: String(command.seq), startToFireTimeoutMs: command.ms };
    case 'CancelTimer':
      return { type: 'CancelTimer', timerId: String(command.seq) };
    case 'SignalExternalWorkflowExecution':
      return {
        type: 'SignalExternalWorkflowExecution', namespace: null, workflowId: String(command.workflowId),
        runId: command.runId === null ? null : String(command.runId), signalName: String(command.signalName),
        input: Array.from(command.args) as Payload[], childWorkflowOnly: Boolean(command.childWorkflowOnly), header: {},
      };
    case 'RequestCancelExternalWorkflowExecution':
      return {
        type: 'RequestCancelExternalWorkflowExecution', namespace: null, workflowId: String(command.workflowId),
        runId: command.runId === null ? null : String(command.runId), childWorkflowOnly: Boolean(command.childWorkflowOnly), reason: '',
      };
    case 'StartChildWorkflowExecution':
      return startChildCommand(command.options);
    case 'CompleteWorkflowExecution':
      return { type: 'CompleteWorkflowExecution', result: command.result as Payload };
    case 'FailWorkflowExecution':
      return { type: 'FailWorkflowExecution', failure: failureFromInfo(command.failure) };
    case 'CancelWorkflowExecution':
      return { type: 'CancelWorkflowExecution', details: null };
    case 'UpsertWorkflowSearchAttributes':
      return { type: 'UpsertWorkflowSearchAttributes', searchAttributes: copyIntoRealm(command.searchAttributes) };
    case 'ModifyWorkflowProperties':
      return { type: 'ModifyWorkflowProperties', upsertedMemo: command.upsertedMemo as Record<string, Payload> };
    case 'SetPatchMarker':
      return patchMarkerCommand({ patchId: String(command.patchId), deprecated: Boolean(command.deprecated) });
    case 'UpdateAcceptance':
    case 'UpdateRejection':
    case 'UpdateResponse':
      return updateProtocolCommand(command, context.updateOf(String(command.updateId)));
    case 'SideEffectMarker':
      return sideEffectMarkerCommand(command.seq, command.value as Payload);
    case 'ContinueAsNewWorkflowExecution':
      return {
        type: 'ContinueAsNewWorkflowExecution',
        workflowType: String(command.workflowType),
        taskQueue: command.taskQueue === null ? null : String(command.taskQueue),
        input: Array.from(command.args) as Payload[],
        workflowRunTimeoutMs: command.workflowRunTimeoutMs,
        workflowTaskTimeoutMs: command.workflowTaskTimeoutMs,
        backoffStartIntervalMs: null,
        retryPolicy: null,
        header: {},
        memo: null,
        searchAttributes: null,
      };
  }
}
