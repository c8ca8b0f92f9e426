/**
 * Command v1: the workflow commands a worker returns in `WorkflowTaskCompleted` (imperative,
 * Temporal's names; records `logbook.<Type>CommandAttributes`). Durations in milliseconds.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, field, mapOf, optional, record, type TaggedUnion } from '../avro-schema.js';
import {
  parentClosePolicySchema,
  workflowIdReusePolicySchema,
  type ParentClosePolicy,
  type WorkflowIdReusePolicy,
} from '../common/v1-enums.js';
import {
  failureSchema,
  headerSchema,
  memoSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  searchAttributesSchema,
  type Failure,
  type Header,
  type Memo,
  type RetryPolicy,
  type SearchAttributes,
} from '../common/v1-records.js';
import { updateProtocolMessageSchemas, type UpdateProtocolMessage } from './v1-update-protocol.js';

/** Tag → attributes of every workflow command. See the event each one produces. */
export interface WorkflowCommandAttributesMap {
  ScheduleActivityTask: {
    activityId: string;
    activityType: string;
    /** null = the workflow's task queue. */
    taskQueue: string | null;
    header: Header;
    input: Payload[];
    scheduleToCloseTimeoutMs: number | null;
    scheduleToStartTimeoutMs: number | null;
    startToCloseTimeoutMs: number | null;
    heartbeatTimeoutMs: number | null;
    retryPolicy: RetryPolicy | null;
  };
  RequestCancelActivityTask: { scheduledEventId: number };
  StartTimer: { timerId: string; startToFireTimeoutMs: number };
  CancelTimer: { timerId: string };
  CompleteWorkflowExecution: { result: Payload | null };
  FailWorkflowExecution: { failure: Failure };
  CancelWorkflowExecution: { details: Payload | null };
  ContinueAsNewWorkflowExecution: {
    workflowType: string;
    /** null = same task queue. */
    taskQueue: string | null;
    input: Payload[];
    workflowRunTimeoutMs: number | null;
    workflowTaskTimeoutMs: number | null;
    backoffStartIntervalMs: number | null;
    retryPolicy: RetryPolicy | null;
    header: Header;
    /** null = carry the current memo over. */
    memo: Memo | null;
    /** null = carry the current search attributes over. */
    searchAttributes: SearchAttributes | null;
  };
  StartChildWorkflowExecution: {
    /** null = the parent's namespace. */
    namespace: string | null;
    workflowId: string;
    workflowType: string;
    /** null = the parent's task queue. */
    taskQueue: string | null;
    input: Payload[];
    workflowExecutionTimeoutMs: number | null;
    workflowRunTimeoutMs: number | null;
    workflowTaskTimeoutMs: number | null;
    parentClosePolicy: ParentClosePolicy;
    workflowIdReusePolicy: WorkflowIdReusePolicy;
    retryPolicy: RetryPolicy | null;
    cronSchedule: string | null;
    header: Header;
    memo: Memo;
    searchAttributes: SearchAttributes;
  };
  SignalExternalWorkflowExecution: {
    namespace: string | null;
    workflowId: string;
    runId: string | null;
    signalName: string;
    input: Payload[];
    childWorkflowOnly: boolean;
    header: Header;
  };
  RequestCancelExternalWorkflowExecution: {
    namespace: string | null;
    workflowId: string;
    runId: string | null;
    childWorkflowOnly: boolean;
    reason: string;
  };
  RecordMarker: {
    markerName: string;
    details: Record<string, Payload[]>;
    header: Header;
    failure: Failure | null;
  };
  UpsertWorkflowSearchAttributes: { searchAttributes: SearchAttributes };
  ModifyWorkflowProperties: { upsertedMemo: Memo };
  /** An update protocol message (accept, reject or respond to an update). */
  ProtocolMessage: {
    messageId: string;
    /** The update id. */
    protocolInstanceId: string;
    body: UpdateProtocolMessage;
  };
}

/** Name of a workflow command, e.g. `ScheduleActivityTask`. */
export type WorkflowCommandType = keyof WorkflowCommandAttributesMap;

/** Every workflow command type, as a const object. */
export const WorkflowCommandType = {
  ScheduleActivityTask: 'ScheduleActivityTask',
  RequestCancelActivityTask: 'RequestCancelActivityTask',
  StartTimer: 'StartTimer',
  CancelTimer: 'CancelTimer',
  CompleteWorkflowExecution: 'CompleteWorkflowExecution',
  FailWorkflowExecution: 'FailWorkflowExecution',
  CancelWorkflowExecution: 'CancelWorkflowExecution',
  ContinueAsNewWorkflowExecution: 'ContinueAsNewWorkflowExecution',
  StartChildWorkflowExecution: 'StartChildWorkflowExecution',
  SignalExternalWorkflowExecution: 'SignalExternalWorkflowExecution',
  RequestCancelExternalWorkflowExecution: 'RequestCancelExternalWorkflowExecution',
  RecordMarker: 'RecordMarker',
  UpsertWorkflowSearchAttributes: 'UpsertWorkflowSearchAttributes',
  ModifyWorkflowProperties: 'ModifyWorkflowProperties',
  ProtocolMessage: 'ProtocolMessage',
} as const satisfies { [K in WorkflowCommandType]: K };

/** A workflow command: `{ type: 'StartTimer', timerId, startToFireTimeoutMs }`. */
export type WorkflowCommand = TaggedUnion<WorkflowCommandAttributesMap>;

/** Avro union of the workflow commands, in frozen branch order. */
export const workflowCommandSchemas = [
  record('logbook.ScheduleActivityTaskCommandAttributes', [
    field('activityId', 'string'),
    field('activityType', 'string'),
    optional('taskQueue', 'string'),
    field('header', headerSchema),
    field('input', payloadsSchema),
    optional('scheduleToCloseTimeoutMs', 'long'),
    optional('scheduleToStartTimeoutMs', 'long'),
    optional('startToCloseTimeoutMs', 'long'),
    optional('heartbeatTimeoutMs', 'long'),
    optional('retryPolicy', retryPolicySchema),
  ]),
  record('logbook.RequestCancelActivityTaskCommandAttributes', [field('scheduledEventId', 'long')]),
  record('logbook.StartTimerCommandAttributes', [field('timerId', 'string'), field('startToFireTimeoutMs', 'long')]),
  record('logbook.CancelTimerCommandAttributes', [field('timerId', 'string')]),
  record('logbook.CompleteWorkflowExecutionCommandAttributes', [optional('result', payloadSchema)]),
  record('logbook.FailWorkflowExecutionCommandAttributes', [field('failure', failureSchema)]),
  record('logbook.CancelWorkflowExecutionCommandAttributes', [optional('details', payloadSchema)]),
  record('logbook.ContinueAsNewWorkflowExecutionCommandAttributes', [
    field('workflowType', 'string'),
    optional('taskQueue', 'string'),
    field('input', payloadsSchema),
    optional('workflowRunTimeoutMs', 'long'),
    optional('workflowTaskTimeoutMs', 'long'),
    optional('backoffStartIntervalMs', 'long'),
    optional('retryPolicy', retryPolicySchema),
    field('header', headerSchema),
    optional('memo', memoSchema),
    optional('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.StartChildWorkflowExecutionCommandAttributes', [
    optional('namespace', 'string'),
    field('workflowId', 'string'),
    field('workflowType', 'string'),
    optional('taskQueue', 'string'),
    field('input', payloadsSchema),
    optional('workflowExecutionTimeoutMs', 'long'),
    optional('workflowRunTimeoutMs', 'long'),
    optional('workflowTaskTimeoutMs', 'long'),
    field('parentClosePolicy', parentClosePolicySchema),
    field('workflowIdReusePolicy', workflowIdReusePolicySchema),
    optional('retryPolicy', retryPolicySchema),
    optional('cronSchedule', 'string'),
    field('header', headerSchema),
    field('memo', memoSchema),
    field('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.SignalExternalWorkflowExecutionCommandAttributes', [
    optional('namespace', 'string'),
    field('workflowId', 'string'),
    optional('runId', 'string'),
    field('signalName', 'string'),
    field('input', payloadsSchema),
    field('childWorkflowOnly', 'boolean'),
    field('header', headerSchema),
  ]),
  record('logbook.RequestCancelExternalWorkflowExecutionCommandAttributes', [
    optional('namespace', 'string'),
    field('workflowId', 'string'),
    optional('runId', 'string'),
    field('childWorkflowOnly', 'boolean'),
    field('reason', 'string'),
  ]),
  record('logbook.RecordMarkerCommandAttributes', [
    field('markerName', 'string'),
    field('details', mapOf(arrayOf(payloadSchema))),
    field('header', headerSchema),
    optional('failure', failureSchema),
  ]),
  record('logbook.UpsertWorkflowSearchAttributesCommandAttributes', [
    field('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.ModifyWorkflowPropertiesCommandAttributes', [field('upsertedMemo', memoSchema)]),
  record('logbook.ProtocolMessageCommandAttributes', [
    field('messageId', 'string'),
    field('protocolInstanceId', 'string'),
    field('body', updateProtocolMessageSchemas),
  ]),
] as const;
