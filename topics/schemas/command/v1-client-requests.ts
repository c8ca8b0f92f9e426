/**
 * Command v1: bodies sent by clients, the gateway and ingress (start, signal, cancel, terminate,
 * update, await result). Records `logbook.<Type>Request`. The Command envelope carries the
 * target (namespace, workflowId, optional runId), the request id and where to reply.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { field, optional, record } from '../avro-schema.js';
import {
  updateWorkflowExecutionLifecycleStageSchema,
  workflowIdConflictPolicySchema,
  workflowIdReusePolicySchema,
  type UpdateWorkflowExecutionLifecycleStage,
  type WorkflowIdConflictPolicy,
  type WorkflowIdReusePolicy,
} from '../common/v1-enums.js';
import {
  externalInitiatorInfoSchema,
  headerSchema,
  memoSchema,
  parentExecutionInfoSchema,
  payloadSchema,
  payloadsSchema,
  retryPolicySchema,
  searchAttributesSchema,
  updateRequestSchema,
  type ExternalInitiatorInfo,
  type Header,
  type Memo,
  type ParentExecutionInfo,
  type RetryPolicy,
  type SearchAttributes,
  type UpdateRequest,
} from '../common/v1-records.js';

/**
 * Start a run. The run id is chosen by the sender, so a start needs no round trip; the policies
 * decide what happens when the workflow id is taken (DESIGN.md §1).
 */
export interface StartWorkflowExecutionRequest {
  /** Run id of the new run, chosen by the client (a UUID). */
  runId: string;
  workflowType: string;
  taskQueue: string;
  input: Payload[];
  identity: string;
  workflowIdConflictPolicy: WorkflowIdConflictPolicy;
  workflowIdReusePolicy: WorkflowIdReusePolicy;
  workflowExecutionTimeoutMs: number | null;
  workflowRunTimeoutMs: number | null;
  /** null = the engine default (10 s). */
  workflowTaskTimeoutMs: number | null;
  retryPolicy: RetryPolicy | null;
  cronSchedule: string | null;
  /** Delay before the first workflow task. */
  workflowStartDelayMs: number | null;
  memo: Memo;
  searchAttributes: SearchAttributes;
  header: Header;
  /** Set only on internal starts of a child (written to commands.internal by the parent's shard). */
  parent: ParentExecutionInfo | null;
}

/** Deliver a signal. Deduplicated by the envelope's request id. */
export interface SignalWorkflowExecutionRequest {
  signalName: string;
  input: Payload[];
  identity: string;
  header: Header;
  /** Set when another workflow sends it (the target answers on commands.internal). */
  externalInitiator: ExternalInitiatorInfo | null;
  /** Deliver only if the target's parent is the initiator. */
  childWorkflowOnly: boolean;
}

/** Signal the run, starting it first if no run is open. */
export interface SignalWithStartWorkflowExecutionRequest {
  start: StartWorkflowExecutionRequest;
  signalName: string;
  signalInput: Payload[];
  signalHeader: Header;
}

/** Ask the run to cancel (the workflow decides how). */
export interface RequestCancelWorkflowExecutionRequest {
  identity: string;
  reason: string;
  externalInitiator: ExternalInitiatorInfo | null;
  childWorkflowOnly: boolean;
}

/** Close the run at once, without running workflow code. */
export interface TerminateWorkflowExecutionRequest {
  reason: string;
  details: Payload | null;
  identity: string;
}

/** Send an update; the answer goes to the envelope's `replyTo` once `waitForStage` is reached. */
export interface UpdateWorkflowExecutionRequest {
  request: UpdateRequest;
  waitForStage: UpdateWorkflowExecutionLifecycleStage;
}

/** Answer the envelope's `replyTo` with the run's result when it closes (at once if closed). */
export interface AwaitWorkflowExecutionResultRequest {
  /** Follow continue-as-new, retries and cron to the last run of the chain. */
  followRuns: boolean;
}

/** Tag → body of the client-facing commands. */
export interface ClientRequestMap {
  StartWorkflowExecution: StartWorkflowExecutionRequest;
  SignalWorkflowExecution: SignalWorkflowExecutionRequest;
  SignalWithStartWorkflowExecution: SignalWithStartWorkflowExecutionRequest;
  RequestCancelWorkflowExecution: RequestCancelWorkflowExecutionRequest;
  TerminateWorkflowExecution: TerminateWorkflowExecutionRequest;
  UpdateWorkflowExecution: UpdateWorkflowExecutionRequest;
  AwaitWorkflowExecutionResult: AwaitWorkflowExecutionResultRequest;
}

const startWorkflowExecutionRequestSchema = record('logbook.StartWorkflowExecutionRequest', [
  field('runId', 'string'),
  field('workflowType', 'string'),
  field('taskQueue', 'string'),
  field('input', payloadsSchema),
  field('identity', 'string'),
  field('workflowIdConflictPolicy', workflowIdConflictPolicySchema),
  field('workflowIdReusePolicy', workflowIdReusePolicySchema),
  optional('workflowExecutionTimeoutMs', 'long'),
  optional('workflowRunTimeoutMs', 'long'),
  optional('workflowTaskTimeoutMs', 'long'),
  optional('retryPolicy', retryPolicySchema),
  optional('cronSchedule', 'string'),
  optional('workflowStartDelayMs', 'long'),
  field('memo', memoSchema),
  field('searchAttributes', searchAttributesSchema),
  field('header', headerSchema),
  optional('parent', parentExecutionInfoSchema),
]);

/** Avro records of this file's bodies, in frozen union order. */
export const clientRequestSchemas = [
  startWorkflowExecutionRequestSchema,
  record('logbook.SignalWorkflowExecutionRequest', [
    field('signalName', 'string'),
    field('input', payloadsSchema),
    field('identity', 'string'),
    field('header', headerSchema),
    optional('externalInitiator', externalInitiatorInfoSchema),
    field('childWorkflowOnly', 'boolean'),
  ]),
  record('logbook.SignalWithStartWorkflowExecutionRequest', [
    field('start', startWorkflowExecutionRequestSchema),
    field('signalName', 'string'),
    field('signalInput', payloadsSchema),
    field('signalHeader', headerSchema),
  ]),
  record('logbook.RequestCancelWorkflowExecutionRequest', [
    field('identity', 'string'),
    field('reason', 'string'),
    optional('externalInitiator', externalInitiatorInfoSchema),
    field('childWorkflowOnly', 'boolean'),
  ]),
  record('logbook.TerminateWorkflowExecutionRequest', [
    field('reason', 'string'),
    optional('details', payloadSchema),
    field('identity', 'string'),
  ]),
  record('logbook.UpdateWorkflowExecutionRequest', [
    field('request', updateRequestSchema),
    field('waitForStage', updateWorkflowExecutionLifecycleStageSchema),
  ]),
  record('logbook.AwaitWorkflowExecutionResultRequest', [field('followRuns', 'boolean')]),
] as const;
