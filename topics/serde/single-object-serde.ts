import { DecodeError, DecodeErrorCode } from './decode-error.js';
import type { RecordCodec } from './record-codec.js';
import { formatFingerprint } from './schema-fingerprint.js';
import type { Serde } from './serde.js';
import { detectWireFormat, readSingleObject, singleObjectHeader, WireFormat } from './wire-format.js';

/**
 * Avro single-object encoding, no registry: the writer schema is found by its fingerprint among
 * the record's known versions and resolved to the latest. Synchronous at heart (`encodeSync`,
 * `decodeSync`) — the embedded backend and the pure parts of the engine can use it directly.
 */
export class SingleObjectSerde implements Serde {
  /** Encodes with the latest schema. @throws EncodeError */
  encodeSync<T>(codec: RecordCodec<T>, value: T): Buffer {
    return codec.encodeBodyAfter(singleObjectHeader(codec.latest.fingerprint), value);
  }

  /**
   * Decodes single-object bytes of any known version.
   * @throws DecodeError (Confluent-framed bytes: `DECODE_REGISTRY_REQUIRED`)
   */
  decodeSync<T>(codec: RecordCodec<T>, bytes: Buffer): T {
    if (detectWireFormat(bytes) === WireFormat.Confluent) {
      throw new DecodeError(
        DecodeErrorCode.RegistryRequired,
        `${codec.name}: record is in the Confluent wire format but no schema registry is configured`,
      );
    }
    const { fingerprint, body } = readSingleObject(bytes);
    const writer = codec.versionByFingerprint(fingerprint);
    if (writer === undefined) {
      throw new DecodeError(
        DecodeErrorCode.UnknownFingerprint,
        `${codec.name}: no known schema version has fingerprint ${formatFingerprint(fingerprint)}`,
      );
    }
    return codec.decodeBody(body, writer);
  }

  /** @see SingleObjectSerde.encodeSync */
  async encode<T>(codec: RecordCodec<T>, value: T, _topic?: string): Promise<Buffer> {
    return this.encodeSync(codec, value);
  }

  /** @see SingleObjectSerde.decodeSync */
  async decode<T>(codec: RecordCodec<T>, bytes: Buffer): Promise<T> {
    return this.decodeSync(codec, bytes);
  }
}
