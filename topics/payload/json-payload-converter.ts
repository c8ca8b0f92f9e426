import type { EncodingPayloadConverter } from './data-converter.js';
import { makePayload, PayloadEncoding, type Payload } from './payload.js';
import { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';

/**
 * The default encoding: UTF-8 JSON under `json/plain`. Accepts every value `JSON.stringify`
 * can represent; `undefined` must be handled earlier (see {@link UndefinedPayloadConverter}).
 */
export class JsonPayloadConverter implements EncodingPayloadConverter {
  /** Always `json/plain`. */
  readonly encoding = PayloadEncoding.Json;

  /**
   * @throws PayloadEncodingError (`PAYLOAD_UNSERIALIZABLE_VALUE`) for a bigint, a cyclic value or
   *   anything `JSON.stringify` turns into nothing (a function, a symbol)
   */
  toPayload(value: unknown): Payload | undefined {
    if (value === undefined) return undefined;
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (err) {
      throw new PayloadEncodingError(
        PayloadEncodingErrorCode.UnserializableValue,
        `value of type ${typeof value} cannot be encoded as JSON: ${(err as Error).message}`,
        { cause: err },
      );
    }
    // JSON.stringify silently returns undefined for functions and symbols: refuse rather than
    // record a payload that decodes to something else.
    if (text === undefined) {
      throw new PayloadEncodingError(
        PayloadEncodingErrorCode.UnserializableValue,
        `value of type ${typeof value} cannot be encoded as JSON`,
      );
    }
    return makePayload(this.encoding, Buffer.from(text, 'utf8'));
  }

  /** @throws PayloadEncodingError (`PAYLOAD_INVALID_DATA`) for malformed JSON */
  fromPayload<T>(payload: Payload): T {
    try {
      return JSON.parse(payload.data.toString('utf8')) as T;
    } catch (err) {
      throw new PayloadEncodingError(
        PayloadEncodingErrorCode.InvalidData,
        `payload marked ${this.encoding} is not valid JSON: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
}
