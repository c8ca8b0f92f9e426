/**
 * Deterministic sample values for golden fixtures (used by `write-fixtures.ts` only, never at run
 * time). Fixed ids and times so regenerated fixtures are byte-identical.
 * @module
 */
import { makePayload, type Payload } from '../payload/payload.js';
import type { Failure, Header, Memo, RetryPolicy, SearchAttributes } from './common/v1-records.js';

/** One golden fixture: `vN-<name>.json` / `.bin`. */
export interface FixtureCase<T> {
  /** kebab-case case name. */
  readonly name: string;
  readonly value: T;
}

/** A fixed epoch-ms time: 2024-01-02T03:04:05.678Z. */
export const sampleTime = 1704164645678;
/** Sample run ids (UUIDs as clients would choose them). */
export const sampleRunId = '0b6f1c1e-3c58-4c44-9d59-7f3e1a2b4c5d';
/** A second run id (continued, child or new run). */
export const sampleOtherRunId = '5e2d8f40-91a7-4b1e-8c3d-2a6b7c8d9e0f';

/** A `json/plain` payload holding the given JSON value. */
export function jsonPayload(value: unknown): Payload {
  return makePayload('json/plain', Buffer.from(JSON.stringify(value), 'utf8'));
}

/** A payload with non-text bytes and extra metadata (as an encrypting codec would write). */
export const sampleBinaryPayload: Payload = {
  metadata: {
    encoding: Buffer.from('binary/encrypted', 'utf8'),
    'encryption-key-id': Buffer.from('key-1', 'utf8'),
  },
  data: Buffer.from([0x00, 0xff, 0xc3, 0x01, 0x80, 0x7f]),
};

/** A header with one tracing entry. */
export const sampleHeader: Header = { traceparent: jsonPayload('00-4bf92f3577b34da6-00f067aa0ba902b7-01') };

/** A memo with one entry. */
export const sampleMemo: Memo = { note: jsonPayload('rush order') };

/** One search attribute of every kind. */
export const sampleSearchAttributes: SearchAttributes = {
  CustomerTier: { type: 'Keyword', value: 'gold' },
  Notes: { type: 'Text', value: 'leave at the door' },
  ItemCount: { type: 'Int', value: 3 },
  Total: { type: 'Double', value: 1234.5 },
  Express: { type: 'Bool', value: true },
  PromisedBy: { type: 'Datetime', value: sampleTime + 86_400_000 },
  Tags: { type: 'KeywordList', value: ['fragile', 'gift'] },
};

/** Temporal's default retry policy, in ms. */
export const sampleRetryPolicy: RetryPolicy = {
  initialIntervalMs: 1000,
  backoffCoefficient: 2,
  maximumIntervalMs: 100_000,
  maximumAttempts: 0,
  nonRetryableErrorTypes: ['InvalidCard'],
};

/** A failure with a cause chain and details. */
export const sampleFailure: Failure = {
  message: 'card declined',
  source: 'TypeScriptSDK',
  stackTrace: 'Error: card declined\n    at charge (activities.ts:12:11)',
  code: 'CardDeclined',
  nonRetryable: false,
  details: jsonPayload({ declineCode: 'insufficient_funds' }),
  cause: {
    message: 'gateway returned 402',
    source: 'TypeScriptSDK',
    stackTrace: '',
    code: 'HttpError',
    nonRetryable: true,
    details: null,
    cause: null,
  },
};
