import type { Type } from 'avsc';
import { parseAvroType } from './avro-type.js';
import { DecodeError, DecodeErrorCode } from './decode-error.js';
import type { RecordCodec, WriterSchema } from './record-codec.js';
import { schemaFingerprint } from './schema-fingerprint.js';
import { topicNameStrategy, type SchemaRegistryClient, type SubjectNameStrategy } from './schema-registry-client.js';
import { SchemaRegistryError } from './schema-registry-error.js';
import type { Serde } from './serde.js';
import { SingleObjectSerde } from './single-object-serde.js';
import { detectWireFormat, frameConfluent, readConfluent, WireFormat } from './wire-format.js';

/** Options of {@link RegistrySerde}. */
export interface RegistrySerdeOptions {
  /** The registry (see `confluentSchemaRegistryClient`). */
  client: SchemaRegistryClient;
  /** Subject naming; default `<topic>-value`. Use `topicRecordNameStrategy` for logbook.state. */
  subjectStrategy?: SubjectNameStrategy;
}

interface FetchedWriter extends WriterSchema {
  readonly fullName: string | undefined;
}

/**
 * Confluent wire format through a schema registry. The latest schema is registered under the
 * topic's subject on first use and its id cached. Decoding reads Confluent framing through the
 * registry and single-object framing locally, so a topic can switch formats.
 *
 * A writer schema fetched from the registry is matched to a local version by fingerprint; one the
 * code does not know (e.g. written by a newer engine) is still read if it resolves to the latest
 * local version.
 */
export class RegistrySerde implements Serde {
  readonly #client: SchemaRegistryClient;
  readonly #subject: SubjectNameStrategy;
  readonly #local = new SingleObjectSerde();
  readonly #ids = new Map<string, Promise<number>>();
  readonly #writers = new Map<number, Promise<FetchedWriter>>();

  /** @param options the registry client and subject naming */
  constructor(options: RegistrySerdeOptions) {
    this.#client = options.client;
    this.#subject = options.subjectStrategy ?? topicNameStrategy;
  }

  /** The registry this serde registers with and reads writer schemas from. */
  get client(): SchemaRegistryClient {
    return this.#client;
  }

  /** @see Serde.encode */
  async encode<T>(codec: RecordCodec<T>, value: T, topic: string): Promise<Buffer> {
    const body = codec.encodeBody(value); // validate before touching the registry
    const id = await this.#schemaId(codec, topic);
    return frameConfluent(id, body);
  }

  /**
   * Registers the latest schema of `codec` under `topic`'s subject now (at start-up), so a registry
   * that cannot be reached or refuses the schema stops the process before it serves anything.
   * @returns the schema's global id
   * @throws SchemaRegistryError
   */
  register(codec: RecordCodec<unknown>, topic: string): Promise<number> {
    return this.#schemaId(codec, topic);
  }

  /** The registry subject the values of `codec` on `topic` are registered under. */
  subjectOf(codec: RecordCodec<unknown>, topic: string): string {
    return this.#subject(topic, codec.fullName);
  }

  /** @see Serde.decode */
  async decode<T>(codec: RecordCodec<T>, bytes: Buffer): Promise<T> {
    if (detectWireFormat(bytes) === WireFormat.SingleObject) return this.#local.decodeSync(codec, bytes);
    const { schemaId, body } = readConfluent(bytes);
    const writer = await this.#writer(schemaId);
    const known = codec.versionByFingerprint(writer.fingerprint);
    if (known === undefined && writer.fullName !== codec.fullName) {
      throw new DecodeError(
        DecodeErrorCode.WrongRecord,
        `schema id ${schemaId} is ${writer.fullName ?? 'not a named record'}, expected ${codec.fullName}`,
      );
    }
    return codec.decodeBody(body, known ?? writer);
  }

  #schemaId(codec: RecordCodec<unknown>, topic: string): Promise<number> {
    const subject = this.#subject(topic, codec.fullName);
    const key = `${subject}\u0000${codec.latest.fingerprint}`;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#client.register(subject, JSON.stringify(codec.latest.schema));
      this.#ids.set(key, id);
      // Forget failures so the next record retries instead of failing forever.
      id.catch(() => this.#ids.delete(key));
    }
    return id;
  }

  #writer(schemaId: number): Promise<FetchedWriter> {
    let writer = this.#writers.get(schemaId);
    if (writer === undefined) {
      writer = this.#fetchWriter(schemaId);
      this.#writers.set(schemaId, writer);
      writer.catch(() => this.#writers.delete(schemaId));
    }
    return writer;
  }

  async #fetchWriter(schemaId: number): Promise<FetchedWriter> {
    let schema: unknown;
    try {
      schema = await this.#client.getSchema(schemaId);
    } catch (err) {
      if (err instanceof SchemaRegistryError && err.status === 404) {
        throw new DecodeError(DecodeErrorCode.UnknownSchemaId, `schema id ${schemaId} is not in the registry`, {
          cause: err,
        });
      }
      throw err;
    }
    let type: Type;
    try {
      type = parseAvroType(schema);
    } catch (err) {
      throw new DecodeError(DecodeErrorCode.IncompatibleSchema, `schema id ${schemaId} is not a usable Avro schema`, {
        cause: err,
      });
    }
    return { type, fingerprint: schemaFingerprint(schema), fullName: type.name };
  }
}
