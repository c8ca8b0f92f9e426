import { CodecDataConverter, ENVELOPE_KEY, fromJsonPayload, isPayloadEnvelope, mapPayloads, toPayloadEnvelope, type DataConverter, type Payload, type PayloadCodec } from '../../topics/payload/index.js';
import type { Serde } from '../../topics/serde/index.js';

/** Fields of the gateway's request bodies that hold lists of user values. */
const VALUE_LISTS = ['args', 'signalArgs', 'updateArgs'] as const;

/**
 * A client's payload codecs (encryption), applied where its values cross to the engine: what it
 * sends is converted and encoded here, so the gateway and the topics only ever hold what the codecs
 * wrote, and what it reads is decoded here. Over the gateway's HTTP API an encoded value travels
 * as a `{ "$payload": … }` envelope in place of the JSON value, both ways.
 */
export class ClientPayloads {
  private readonly codecs: CodecDataConverter;

  constructor(converter: DataConverter, codecs: readonly PayloadCodec[]) {
    this.codecs = new CodecDataConverter({ converter, codecs });
  }

  /** A value converted and encoded, as an envelope for a JSON body. */
  async toWire(value: unknown): Promise<unknown> {
    return toPayloadEnvelope(await this.codecs.toPayload(value));
  }

  /** A gateway request body with its argument lists and memo values encoded. */
  async encodeBody(body: unknown): Promise<unknown> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const encoded: Record<string, unknown> = { ...body };
    for (const field of VALUE_LISTS) {
      const list = encoded[field];
      if (Array.isArray(list)) encoded[field] = await Promise.all(list.map((v) => this.toWire(v)));
    }
    const memo = encoded.memo;
    if (memo !== null && typeof memo === 'object' && !Array.isArray(memo)) {
      encoded.memo = Object.fromEntries(await Promise.all(Object.entries(memo).map(async ([k, v]) => [k, await this.toWire(v)] as const)));
    }
    return encoded;
  }

  /**
   * A gateway answer with every payload envelope in it replaced by its decoded value.
   * @throws whatever a codec throws for a payload it cannot decode (`KeyErased` for an erased subject)
   */
  async decodeView<T>(value: T): Promise<T> {
    return (await this.decodeAny(value)) as T;
  }

  /** Every payload record (bytes, as in a raw history) inside `value` decoded. */
  async decodeRecords<T>(value: T): Promise<T> {
    return mapPayloads(value, async (p) => (await this.codecs.decode([p]))[0]!);
  }

  /** One payload decoded and converted. */
  async fromPayload<T>(payload: Payload): Promise<T> {
    return this.codecs.fromPayload<T>(payload);
  }

  /** A serde whose encoded records (this client's commands) carry encoded payloads; decoding is left to the caller. */
  encodingSerde(serde: Serde): Serde {
    return {
      encode: async (codec, value, topic) => serde.encode(codec, await mapPayloads(value, async (p) => (await this.codecs.encode([p]))[0]!), topic),
      decode: (codec, bytes) => serde.decode(codec, bytes),
    };
  }

  private async decodeAny(value: unknown): Promise<unknown> {
    if (isPayloadEnvelope(value)) return this.fromPayload(fromJsonPayload(value[ENVELOPE_KEY], ENVELOPE_KEY));
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.decodeAny(v)));
    if (value === null || typeof value !== 'object') return value;
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, k === 'searchAttributes' ? v : await this.decodeAny(v)] as const));
    return Object.fromEntries(entries);
  }
}
