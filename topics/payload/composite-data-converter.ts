import { BinaryPayloadConverter } from './binary-payload-converter.js';
import type { DataConverter, EncodingPayloadConverter } from './data-converter.js';
import { JsonPayloadConverter } from './json-payload-converter.js';
import { payloadEncodingOf, type Payload } from './payload.js';
import { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';
import { UndefinedPayloadConverter } from './undefined-payload-converter.js';
import { isSubjectMarked, SUBJECT_MARK } from './subject-marker.js';
import { withPayloadSubject } from './payload-subject.js';

/**
 * A {@link DataConverter} made of several encodings: encoding asks each in order and keeps the
 * first that claims the value; decoding dispatches on the payload's `encoding` metadata.
 *
 * @example
 * const converter = new CompositeDataConverter([new UndefinedPayloadConverter(), new JsonPayloadConverter()]);
 */
export class CompositeDataConverter implements DataConverter {
  readonly #ordered: readonly EncodingPayloadConverter[];
  readonly #byEncoding: ReadonlyMap<string, EncodingPayloadConverter>;

  /**
   * @param converters tried in order when encoding; their encodings must be distinct
   * @throws Error when two converters share an encoding (a configuration bug)
   */
  constructor(converters: readonly EncodingPayloadConverter[]) {
    const byEncoding = new Map<string, EncodingPayloadConverter>();
    for (const converter of converters) {
      if (byEncoding.has(converter.encoding)) {
        throw new Error(`two payload converters claim the encoding ${converter.encoding}`);
      }
      byEncoding.set(converter.encoding, converter);
    }
    this.#ordered = [...converters];
    this.#byEncoding = byEncoding;
  }

  /**
   * A value marked by `withSubject` becomes its inner value's payload with `logbook-subject` metadata.
   * @throws PayloadEncodingError (`PAYLOAD_UNSERIALIZABLE_VALUE`) when no converter claims it
   */
  toPayload(value: unknown): Payload {
    if (isSubjectMarked(value)) return withPayloadSubject(this.toPayload(value.value), value[SUBJECT_MARK]);
    for (const converter of this.#ordered) {
      const payload = converter.toPayload(value);
      if (payload !== undefined) return payload;
    }
    throw new PayloadEncodingError(
      PayloadEncodingErrorCode.UnserializableValue,
      `no payload converter accepts a value of type ${typeof value}`,
    );
  }

  /** @throws PayloadEncodingError for a missing or unknown encoding, or invalid data */
  fromPayload<T>(payload: Payload): T {
    const encoding = payloadEncodingOf(payload);
    if (encoding === undefined) {
      throw new PayloadEncodingError(
        PayloadEncodingErrorCode.MissingEncoding,
        'payload has no encoding metadata',
      );
    }
    const converter = this.#byEncoding.get(encoding);
    if (converter === undefined) {
      const known = [...this.#byEncoding.keys()].join(', ');
      throw new PayloadEncodingError(
        PayloadEncodingErrorCode.UnknownEncoding,
        `unknown payload encoding ${JSON.stringify(encoding)} (known: ${known})`,
      );
    }
    return converter.fromPayload<T>(payload);
  }
}

/**
 * The default converter, as Temporal's: `undefined` → `binary/null`, bytes → `binary/plain`,
 * everything else → `json/plain`.
 */
export const defaultDataConverter: DataConverter = new CompositeDataConverter([
  new UndefinedPayloadConverter(),
  new BinaryPayloadConverter(),
  new JsonPayloadConverter(),
]);
