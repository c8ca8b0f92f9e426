import type { EncodingPayloadConverter } from './data-converter.js';
import { makePayload, PayloadEncoding, type Payload } from './payload.js';

/**
 * Stores a `Uint8Array` (or `Buffer`) as is under `binary/plain`, because JSON would inflate it
 * into an array of numbers. Decodes to a `Buffer`.
 */
export class BinaryPayloadConverter implements EncodingPayloadConverter {
  /** Always `binary/plain`. */
  readonly encoding = PayloadEncoding.Binary;

  /** Claims only `Uint8Array` values (which includes `Buffer`). */
  toPayload(value: unknown): Payload | undefined {
    if (!(value instanceof Uint8Array)) return undefined;
    // Copy so later mutation of the caller's array cannot change recorded history.
    return makePayload(this.encoding, Buffer.from(value));
  }

  /** Returns a copy of the payload's bytes. */
  fromPayload<T>(payload: Payload): T {
    return Buffer.from(payload.data) as T;
  }
}
