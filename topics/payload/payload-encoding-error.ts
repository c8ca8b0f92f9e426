import { LogbookError } from '../errors.js';
/** Stable codes of {@link PayloadEncodingError}; matched by code, never by message. */
export const PayloadEncodingErrorCode = {
  /** The payload's `encoding` metadata names no registered converter. */
  UnknownEncoding: 'PAYLOAD_UNKNOWN_ENCODING',
  /** The payload has no `encoding` metadata at all. */
  MissingEncoding: 'PAYLOAD_MISSING_ENCODING',
  /** No converter accepts the value (e.g. a function, a symbol, a bigint for JSON). */
  UnserializableValue: 'PAYLOAD_UNSERIALIZABLE_VALUE',
  /** The payload's bytes are not valid for its encoding (e.g. malformed JSON). */
  InvalidData: 'PAYLOAD_INVALID_DATA',
  /** A codec returned a different number of payloads than it was given (a codec bug). */
  InvalidCodecResult: 'PAYLOAD_INVALID_CODEC_RESULT',
} as const;

/** One of the {@link PayloadEncodingErrorCode} values. */
export type PayloadEncodingErrorCode =
  (typeof PayloadEncodingErrorCode)[keyof typeof PayloadEncodingErrorCode];

/**
 * A value could not be turned into a payload, or a payload back into a value.
 *
 * Never retriable: the same bytes or value fail the same way every time.
 */
export class PayloadEncodingError extends LogbookError {
  /** Stable machine-readable reason. */
  declare readonly code: PayloadEncodingErrorCode;

  /**
   * @param code the stable reason
   * @param message a human-readable explanation naming the encoding or value kind
   * @param options the underlying error, if any
   */
  constructor(code: PayloadEncodingErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
