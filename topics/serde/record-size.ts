import { EncodeError, EncodeErrorCode } from './encode-error.js';
import type { RecordCodec } from './record-codec.js';
import { singleObjectHeaderLength } from './wire-format.js';

/** The largest payload Logbook promises to carry (DESIGN.md §7 "Record size"). */
export const maxPayloadBytes = 2 * 1024 * 1024;

/**
 * Size in bytes of a value once encoded with the record's latest schema, including the framing
 * header (single-object's 10 bytes: an upper bound, Confluent's header is 5).
 * @throws EncodeError when the value does not fit the schema
 */
export function encodedSize<T>(codec: RecordCodec<T>, value: T): number {
  return singleObjectHeaderLength + codec.encodeBody(value).length;
}

/**
 * Checks an encoded record against a size limit before it is sent.
 * @param bytes the encoded record (or its size)
 * @param limit bytes allowed; default {@link maxPayloadBytes}
 * @param what names the record in the error (e.g. `HistoryEvent ActivityTaskCompleted`)
 * @throws EncodeError `ENCODE_TOO_LARGE`
 */
export function assertEncodedSize(bytes: Uint8Array | number, limit = maxPayloadBytes, what = 'record'): void {
  const size = typeof bytes === 'number' ? bytes : bytes.length;
  if (size > limit) {
    throw new EncodeError(EncodeErrorCode.TooLarge, `${what} is ${size} bytes, over the limit of ${limit}`);
  }
}
