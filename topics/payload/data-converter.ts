import type { Payload } from './payload.js';

/**
 * Turns user values into {@link Payload}s and back. Synchronous and pure, so workflow code can use
 * it during replay; anything asynchronous (encryption, remote storage) belongs in a
 * {@link PayloadCodec} applied by {@link CodecDataConverter}.
 *
 * @example
 * const p = defaultDataConverter.toPayload({ orderId: 42 });
 * const v = defaultDataConverter.fromPayload<{ orderId: number }>(p);
 */
export interface DataConverter {
  /**
   * Encodes a value.
   * @throws PayloadEncodingError (`PAYLOAD_UNSERIALIZABLE_VALUE`) when no encoding accepts it
   */
  toPayload(value: unknown): Payload;
  /**
   * Decodes a payload. The type parameter is an unchecked assertion by the caller.
   * @throws PayloadEncodingError for a missing or unknown encoding, or invalid data
   */
  fromPayload<T>(payload: Payload): T;
}

/**
 * One encoding of a composite converter (Temporal's `PayloadConverterWithEncoding`): it either
 * claims a value or passes, and decodes only payloads of its own encoding.
 */
export interface EncodingPayloadConverter {
  /** The `encoding` metadata value this converter writes and reads. */
  readonly encoding: string;
  /** Encodes the value, or returns `undefined` to let the next converter try. */
  toPayload(value: unknown): Payload | undefined;
  /** Decodes a payload whose encoding is {@link EncodingPayloadConverter.encoding}. */
  fromPayload<T>(payload: Payload): T;
}
