import type { RecordCodec } from './record-codec.js';

/**
 * Turns topic values into bytes and back. Implementations differ in framing only; all of them
 * decode both framings they can resolve (see `detectWireFormat`).
 *
 * @example
 * const bytes = await serde.encode(historyEventCodec, event, 'logbook.history');
 * const back = await serde.decode(historyEventCodec, bytes);
 */
export interface Serde {
  /**
   * Encodes a value with the record's latest schema.
   * @param topic the destination topic (names the registry subject; ignored without a registry)
   * @throws EncodeError when the value does not fit the schema
   * @throws SchemaRegistryError when the registry cannot be reached (retriable)
   */
  encode<T>(codec: RecordCodec<T>, value: T, topic: string): Promise<Buffer>;
  /**
   * Decodes bytes written with any known version of the record into its latest TypeScript form.
   * @throws DecodeError for bytes that will never decode (dead-letter them)
   * @throws SchemaRegistryError when the registry cannot be reached (retriable)
   */
  decode<T>(codec: RecordCodec<T>, bytes: Buffer): Promise<T>;
}

/** A {@link Serde} bound to one topic and record. */
export interface TopicValueSerde<T> {
  encode(value: T): Promise<Buffer>;
  decode(bytes: Buffer): Promise<T>;
}

/** Binds a serde to a topic and the record its values hold. */
export function topicValueSerde<T>(serde: Serde, topic: string, codec: RecordCodec<T>): TopicValueSerde<T> {
  return {
    encode: (value) => serde.encode(codec, value, topic),
    decode: (bytes) => serde.decode(codec, bytes),
  };
}
