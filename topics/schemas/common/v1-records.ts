/**
 * Records shared by the v1 schemas: payloads, failures, retry policies, execution references and
 * typed search attributes. Embedded wherever they are used; `defineSchema` turns repeats into
 * name references. Frozen: change them only by adding a `v2-records.ts`.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, field, mapOf, optional, record, timestampMillis, type Tagged } from '../avro-schema.js';

/** `logbook.Payload { metadata: map<bytes>, data: bytes }` — every user value in every schema. */
export const payloadSchema = record(
  'logbook.Payload',
  [field('metadata', mapOf('bytes')), field('data', 'bytes')],
  'An opaque user value: data encoded as metadata.encoding says (json/plain by default).',
);

/** A list of payloads (arguments). */
export const payloadsSchema = arrayOf(payloadSchema);

/** Context propagated with a call (tracing, auth): header name → payload. */
export type Header = Record<string, Payload>;
/** Avro schema of {@link Header}. */
export const headerSchema = mapOf(payloadSchema);

/** Non-indexed user data attached to a run: key → payload. */
export type Memo = Record<string, Payload>;
/** Avro schema of {@link Memo}. */
export const memoSchema = mapOf(payloadSchema);

/**
 * A failure as it crosses a topic (mirrors Temporal's `Failure`). Matched by `code`, never by
 * class: `code` is the error type (e.g. `ApplicationFailure` type name, `TimeoutFailure`).
 */
export interface Failure {
  message: string;
  /** Who produced it, e.g. `TypeScriptSDK`, `Logbook`. */
  source: string;
  stackTrace: string;
  /** Error type; retry policies match `nonRetryableErrorTypes` against it. */
  code: string;
  nonRetryable: boolean;
  details: Payload | null;
  /** The failure that caused this one. */
  cause: Failure | null;
}
/** Avro schema of {@link Failure} (recursive through `cause`). */
export const failureSchema = record('logbook.Failure', [
  field('message', 'string'),
  field('source', 'string'),
  field('stackTrace', 'string'),
  field('code', 'string'),
  field('nonRetryable', 'boolean'),
  optional('details', payloadSchema),
  optional('cause', 'logbook.Failure'),
]);

/** How an activity or workflow is retried. Durations in milliseconds. */
export interface RetryPolicy {
  initialIntervalMs: number;
  backoffCoefficient: number;
  /** Cap on the interval; `null` = 100 × initial interval. */
  maximumIntervalMs: number | null;
  /** 0 = unlimited. */
  maximumAttempts: number;
  /** Failure codes that are never retried. */
  nonRetryableErrorTypes: string[];
}
/** Avro schema of {@link RetryPolicy}. */
export const retryPolicySchema = record('logbook.RetryPolicy', [
  field('initialIntervalMs', 'long'),
  field('backoffCoefficient', 'double'),
  optional('maximumIntervalMs', 'long'),
  field('maximumAttempts', 'int'),
  field('nonRetryableErrorTypes', arrayOf('string')),
]);

/** A workflow run reference; `runId` null means "the current run". */
export interface WorkflowExecution {
  workflowId: string;
  runId: string | null;
}
/** Avro schema of {@link WorkflowExecution}. */
export const workflowExecutionSchema = record('logbook.WorkflowExecution', [
  field('workflowId', 'string'),
  optional('runId', 'string'),
]);

/** The parent of a child run and the event that started it. */
export interface ParentExecutionInfo {
  namespace: string;
  workflowId: string;
  runId: string;
  /** The parent's `StartChildWorkflowExecutionInitiated` event id. */
  initiatedEventId: number;
}
/** Avro schema of {@link ParentExecutionInfo}. */
export const parentExecutionInfoSchema = record('logbook.ParentExecutionInfo', [
  field('namespace', 'string'),
  field('workflowId', 'string'),
  field('runId', 'string'),
  field('initiatedEventId', 'long'),
]);

/** The workflow run (and its initiating event) that signalled or cancelled another one. */
export interface ExternalInitiatorInfo {
  namespace: string;
  workflowId: string;
  runId: string;
  /** The initiator's `…ExternalWorkflowExecutionInitiated` event id. */
  initiatedEventId: number;
}
/** Avro schema of {@link ExternalInitiatorInfo}. */
export const externalInitiatorInfoSchema = record('logbook.ExternalInitiatorInfo', [
  field('namespace', 'string'),
  field('workflowId', 'string'),
  field('runId', 'string'),
  field('initiatedEventId', 'long'),
]);

/** Where to send the answer to a command: the asking gateway and its own correlation id. */
export interface ReplyTo {
  gatewayId: string;
  requestId: string;
}
/** Avro schema of {@link ReplyTo}. */
export const replyToSchema = record('logbook.ReplyTo', [field('gatewayId', 'string'), field('requestId', 'string')]);

/** An update call (Temporal's `update.v1.Request`, flattened). */
export interface UpdateRequest {
  updateId: string;
  identity: string;
  /** The update handler's name. */
  name: string;
  header: Header;
  args: Payload[];
}
/** Avro schema of {@link UpdateRequest}. */
export const updateRequestSchema = record('logbook.UpdateRequest', [
  field('updateId', 'string'),
  field('identity', 'string'),
  field('name', 'string'),
  field('header', headerSchema),
  field('args', payloadsSchema),
]);

/** Attributes of each typed search attribute kind (Temporal's indexed value types). */
export interface SearchAttributeValueMap {
  Keyword: { value: string };
  Text: { value: string };
  Int: { value: number };
  Double: { value: number };
  Bool: { value: boolean };
  /** Epoch milliseconds. */
  Datetime: { value: number };
  KeywordList: { value: string[] };
}
/** A typed search attribute value, e.g. `{ type: 'Keyword', value: 'gold' }`. */
export type SearchAttributeValue = {
  [K in keyof SearchAttributeValueMap]: Tagged<K, SearchAttributeValueMap[K]>;
}[keyof SearchAttributeValueMap];
/** Indexed attributes of a run: name → typed value. */
export type SearchAttributes = Record<string, SearchAttributeValue>;

/** The union of search attribute records; branch `logbook.<Kind>SearchAttribute`. */
export const searchAttributeValueSchema = [
  record('logbook.KeywordSearchAttribute', [field('value', 'string')]),
  record('logbook.TextSearchAttribute', [field('value', 'string')]),
  record('logbook.IntSearchAttribute', [field('value', 'long')]),
  record('logbook.DoubleSearchAttribute', [field('value', 'double')]),
  record('logbook.BoolSearchAttribute', [field('value', 'boolean')]),
  record('logbook.DatetimeSearchAttribute', [field('value', timestampMillis)]),
  record('logbook.KeywordListSearchAttribute', [field('value', arrayOf('string'))]),
] as const;
/** Avro schema of {@link SearchAttributes}. */
export const searchAttributesSchema = mapOf(searchAttributeValueSchema);
