import { defaultDataConverter } from './composite-data-converter.js';
import type { DataConverter } from './data-converter.js';
import type { Payload } from './payload.js';
import type { PayloadCodec } from './payload-codec.js';
import { PayloadEncodingError, PayloadEncodingErrorCode } from './payload-encoding-error.js';

/**
 * A {@link DataConverter} followed by a chain of {@link PayloadCodec}s (Temporal's "loaded data
 * converter"). Encoding runs the converter, then the codecs first to last; decoding runs the
 * codecs last to first, then the converter — so `codecs: [compress, encrypt]` compresses before
 * it encrypts.
 *
 * @example
 * const dc = new CodecDataConverter({ codecs: [encryptionCodec] });
 * const [p] = await dc.toPayloads('hello');
 */
export class CodecDataConverter {
  /** The synchronous converter (also what workflow code uses during replay). */
  readonly converter: DataConverter;
  /** Codecs in encoding order. */
  readonly codecs: readonly PayloadCodec[];

  /**
   * @param options.converter defaults to {@link defaultDataConverter}
   * @param options.codecs defaults to none
   */
  constructor(options: { converter?: DataConverter; codecs?: readonly PayloadCodec[] } = {}) {
    this.converter = options.converter ?? defaultDataConverter;
    this.codecs = [...(options.codecs ?? [])];
  }

  /** Converts and encodes one value. */
  async toPayload(value: unknown): Promise<Payload> {
    const [payload] = await this.toPayloads(value);
    return payload as Payload;
  }

  /** Converts and encodes values, one payload per value, in order. */
  async toPayloads(...values: unknown[]): Promise<Payload[]> {
    return this.encode(values.map((v) => this.converter.toPayload(v)));
  }

  /** Decodes and converts one payload. */
  async fromPayload<T>(payload: Payload): Promise<T> {
    const [value] = await this.fromPayloads<T>([payload]);
    return value as T;
  }

  /** Decodes and converts payloads, one value per payload, in order. */
  async fromPayloads<T>(payloads: readonly Payload[]): Promise<T[]> {
    const decoded = await this.decode(payloads);
    return decoded.map((p) => this.converter.fromPayload<T>(p));
  }

  /** Applies the codecs' `encode`, first to last, to already-converted payloads. */
  async encode(payloads: readonly Payload[]): Promise<Payload[]> {
    let current = [...payloads];
    for (const codec of this.codecs) current = await checkedCount(codec.encode(current), current.length);
    return current;
  }

  /** Applies the codecs' `decode`, last to first. */
  async decode(payloads: readonly Payload[]): Promise<Payload[]> {
    let current = [...payloads];
    for (const codec of [...this.codecs].reverse()) {
      current = await checkedCount(codec.decode(current), current.length);
    }
    return current;
  }
}

// A codec that drops or adds payloads would silently shift arguments: fail loudly instead.
async function checkedCount(result: Promise<Payload[]>, expected: number): Promise<Payload[]> {
  const payloads = await result;
  if (payloads.length !== expected) {
    throw new PayloadEncodingError(
      PayloadEncodingErrorCode.InvalidCodecResult,
      `payload codec returned ${payloads.length} payloads for ${expected}`,
    );
  }
  return payloads;
}
