/**
 * HistoryEvent v1 attributes: messages into a run (signals, updates), markers, and changes of
 * search attributes and memo.
 * @module
 */
import type { Payload } from '../../payload/payload.js';
import { arrayOf, field, mapOf, optional, record } from '../avro-schema.js';
import {
  externalInitiatorInfoSchema,
  failureSchema,
  headerSchema,
  memoSchema,
  payloadSchema,
  payloadsSchema,
  searchAttributesSchema,
  updateRequestSchema,
  type ExternalInitiatorInfo,
  type Failure,
  type Header,
  type Memo,
  type SearchAttributes,
  type UpdateRequest,
} from '../common/v1-records.js';

/** A signal was delivered to the run. */
export interface WorkflowExecutionSignaledEventAttributes {
  signalName: string;
  input: Payload[];
  identity: string;
  header: Header;
  /** The command's request id; the engine deduplicates signals by it. */
  requestId: string;
  /** Set when another workflow sent the signal. */
  externalInitiator: ExternalInitiatorInfo | null;
}

/** The workflow recorded a marker (patches, side effects, local activities). */
export interface MarkerRecordedEventAttributes {
  markerName: string;
  details: Record<string, Payload[]>;
  workflowTaskCompletedEventId: number;
  header: Header;
  failure: Failure | null;
}

/** The workflow's update validator accepted an update. */
export interface WorkflowExecutionUpdateAcceptedEventAttributes {
  protocolInstanceId: string;
  acceptedRequestMessageId: string;
  acceptedRequestSequencingEventId: number;
  acceptedRequest: UpdateRequest;
}

/** An accepted update finished with a result or a failure (exactly one is set). */
export interface WorkflowExecutionUpdateCompletedEventAttributes {
  updateId: string;
  acceptedEventId: number;
  identity: string;
  result: Payload | null;
  failure: Failure | null;
}

/** The workflow changed its search attributes (upsert; a key is never removed in v1). */
export interface UpsertWorkflowSearchAttributesEventAttributes {
  workflowTaskCompletedEventId: number;
  searchAttributes: SearchAttributes;
}

/** The workflow changed its memo (upsert). */
export interface WorkflowPropertiesModifiedEventAttributes {
  workflowTaskCompletedEventId: number;
  upsertedMemo: Memo;
}

/** Tag → attributes of the events in this file. */
export interface MessageEventAttributesMap {
  WorkflowExecutionSignaled: WorkflowExecutionSignaledEventAttributes;
  MarkerRecorded: MarkerRecordedEventAttributes;
  WorkflowExecutionUpdateAccepted: WorkflowExecutionUpdateAcceptedEventAttributes;
  WorkflowExecutionUpdateCompleted: WorkflowExecutionUpdateCompletedEventAttributes;
  UpsertWorkflowSearchAttributes: UpsertWorkflowSearchAttributesEventAttributes;
  WorkflowPropertiesModified: WorkflowPropertiesModifiedEventAttributes;
}

/** Avro records of this file's events, in their frozen union order. */
export const messageEventSchemas = [
  record('logbook.WorkflowExecutionSignaledEventAttributes', [
    field('signalName', 'string'),
    field('input', payloadsSchema),
    field('identity', 'string'),
    field('header', headerSchema),
    field('requestId', 'string'),
    optional('externalInitiator', externalInitiatorInfoSchema),
  ]),
  record('logbook.MarkerRecordedEventAttributes', [
    field('markerName', 'string'),
    field('details', mapOf(arrayOf(payloadSchema))),
    field('workflowTaskCompletedEventId', 'long'),
    field('header', headerSchema),
    optional('failure', failureSchema),
  ]),
  record('logbook.WorkflowExecutionUpdateAcceptedEventAttributes', [
    field('protocolInstanceId', 'string'),
    field('acceptedRequestMessageId', 'string'),
    field('acceptedRequestSequencingEventId', 'long'),
    field('acceptedRequest', updateRequestSchema),
  ]),
  record('logbook.WorkflowExecutionUpdateCompletedEventAttributes', [
    field('updateId', 'string'),
    field('acceptedEventId', 'long'),
    field('identity', 'string'),
    optional('result', payloadSchema),
    optional('failure', failureSchema),
  ]),
  record('logbook.UpsertWorkflowSearchAttributesEventAttributes', [
    field('workflowTaskCompletedEventId', 'long'),
    field('searchAttributes', searchAttributesSchema),
  ]),
  record('logbook.WorkflowPropertiesModifiedEventAttributes', [
    field('workflowTaskCompletedEventId', 'long'),
    field('upsertedMemo', memoSchema),
  ]),
] as const;
