import { LogbookError } from '../errors.js';
/** Stable codes of {@link DecodeError}. */
export const DecodeErrorCode = {
  /** The first bytes are neither single-object (C3 01) nor Confluent (00) framing. */
  UnknownFormat: 'DECODE_UNKNOWN_FORMAT',
  /** The header or the body ends early. */
  Truncated: 'DECODE_TRUNCATED',
  /** The single-object fingerprint matches no known version of the record. */
  UnknownFingerprint: 'DECODE_UNKNOWN_FINGERPRINT',
  /** The schema registry has no schema with this id. */
  UnknownSchemaId: 'DECODE_UNKNOWN_SCHEMA_ID',
  /** The writer schema belongs to another record kind. */
  WrongRecord: 'DECODE_WRONG_RECORD',
  /** The writer schema cannot be resolved to the reader schema. */
  IncompatibleSchema: 'DECODE_INCOMPATIBLE_SCHEMA',
  /** The body does not follow its writer schema (bad length, union index, trailing bytes, …). */
  InvalidBody: 'DECODE_INVALID_BODY',
  /** The decoded record breaks an invariant of its TypeScript form (e.g. eventType mismatch). */
  InvalidValue: 'DECODE_INVALID_VALUE',
  /** Confluent-framed bytes reached a serde without a schema registry. */
  RegistryRequired: 'DECODE_REGISTRY_REQUIRED',
} as const;

/** One of the {@link DecodeErrorCode} values. */
export type DecodeErrorCode = (typeof DecodeErrorCode)[keyof typeof DecodeErrorCode];

/**
 * Bytes that will never decode: the engine dead-letters the record with `code` and `reason` in
 * headers. Never retriable (a registry outage is a `SchemaRegistryError` instead).
 */
export class DecodeError extends LogbookError {
  /** Stable machine-readable reason. */
  declare readonly code: DecodeErrorCode;
  /** Human-readable detail, without the code (for a dead-letter header). */
  readonly reason: string;

  /**
   * @param code the stable reason
   * @param reason what was wrong, naming the record and the offending value
   */
  constructor(code: DecodeErrorCode, reason: string, options?: { cause?: unknown }) {
    super(code, `${code}: ${reason}`, options);
    this.reason = reason;
  }
}
