import type { EncodingPayloadConverter } from './data-converter.js';
import { makePayload, PayloadEncoding, type Payload } from './payload.js';

/**
 * Encodes `undefined` as an empty `binary/null` payload, because JSON cannot represent it and a
 * void activity or workflow result must still round-trip.
 */
export class UndefinedPayloadConverter implements EncodingPayloadConverter {
  /** Always `binary/null`. */
  readonly encoding = PayloadEncoding.Null;

  /** Claims only `undefined`. */
  toPayload(value: unknown): Payload | undefined {
    return value === undefined ? makePayload(this.encoding, Buffer.alloc(0)) : undefined;
  }

  /** Always returns `undefined`. */
  fromPayload<T>(_payload: Payload): T {
    return undefined as T;
  }
}
