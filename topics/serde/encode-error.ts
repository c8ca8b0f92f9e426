import { LogbookError } from '../errors.js';
/** Stable codes of {@link EncodeError}. */
export const EncodeErrorCode = {
  /** The value does not match the record's schema (see `paths`). */
  InvalidValue: 'ENCODE_INVALID_VALUE',
  /** The encoded record is larger than the limit it must fit. */
  TooLarge: 'ENCODE_TOO_LARGE',
} as const;

/** One of the {@link EncodeErrorCode} values. */
export type EncodeErrorCode = (typeof EncodeErrorCode)[keyof typeof EncodeErrorCode];

/** A value that cannot be written: a programming error or an oversized output. Never retriable. */
export class EncodeError extends LogbookError {
  /** Stable machine-readable reason. */
  declare readonly code: EncodeErrorCode;
  /** Dotted paths (Avro form) of the offending fields, when known. */
  readonly paths: readonly string[];

  /**
   * @param code the stable reason
   * @param message what was wrong, naming the record
   * @param paths offending field paths, if known
   */
  constructor(code: EncodeErrorCode, message: string, paths: readonly string[] = [], options?: { cause?: unknown }) {
    super(code, `${code}: ${message}`, options);
    this.paths = paths;
  }
}
