import type { Resolver, Type } from 'avsc';
import type { SchemaVersion, RecordSchemas } from '../schemas/record-schemas.js';
import { checkAvroBounds } from './avro-bounds-check.js';
import { parseAvroType } from './avro-type.js';
import { DecodeError, DecodeErrorCode } from './decode-error.js';
import { EncodeError, EncodeErrorCode } from './encode-error.js';
import { schemaFingerprint } from './schema-fingerprint.js';
import type { TaggedUnionConverter } from './tagged-union-converter.js';

/** A writer schema the codec can read bytes of. */
export interface WriterSchema {
  /** CRC-64-AVRO of the schema's canonical form. */
  readonly fingerprint: bigint;
  /** The parsed schema. */
  readonly type: Type;
}

/** One parsed schema version of a record. */
export interface CodecVersion extends WriterSchema {
  readonly version: number;
  /** The schema JSON (with docs, defaults and logical types, as sent to a registry). */
  readonly schema: SchemaVersion['schema'];
}

/**
 * Avro bodies (no framing) of one record kind, in every schema version: encodes with the latest
 * version, decodes any known writer version (or a registry-supplied writer schema) into the
 * latest, and converts between avsc's values and the clean TypeScript types.
 *
 * Schemas are parsed on first use, so importing every codec costs nothing.
 *
 * @example
 * const body = historyEventCodec.encodeBody(event);
 * const back = historyEventCodec.decodeBody(body, historyEventCodec.latest);
 */
export class RecordCodec<T> {
  /** Short record name, e.g. `HistoryEvent`. */
  readonly name: string;
  /** Avro full name, e.g. `logbook.HistoryEvent`. */
  readonly fullName: string;
  readonly #schemas: RecordSchemas;
  readonly #converter: TaggedUnionConverter;
  #versions: readonly CodecVersion[] | undefined;
  readonly #resolvers = new WeakMap<Type, Resolver>();

  /**
   * @param schemas every version of the record
   * @param converter shared converter (carries record hooks)
   */
  constructor(schemas: RecordSchemas, converter: TaggedUnionConverter) {
    this.name = schemas.record;
    this.fullName = schemas.fullName;
    this.#schemas = schemas;
    this.#converter = converter;
  }

  /** Every version, oldest first. */
  get versions(): readonly CodecVersion[] {
    this.#versions ??= this.#schemas.versions.map((v) => ({
      version: v.version,
      schema: v.schema,
      type: parseAvroType(v.schema),
      fingerprint: schemaFingerprint(v.schema),
    }));
    return this.#versions;
  }

  /** The version writers use. */
  get latest(): CodecVersion {
    return this.versions[this.versions.length - 1] as CodecVersion;
  }

  /** The version with this fingerprint, if it is one of this record's. */
  versionByFingerprint(fingerprint: bigint): CodecVersion | undefined {
    return this.versions.find((v) => v.fingerprint === fingerprint);
  }

  /** The version with this number. @throws Error if there is none */
  version(version: number): CodecVersion {
    const found = this.versions.find((v) => v.version === version);
    if (found === undefined) throw new Error(`${this.name} has no schema version ${version}`);
    return found;
  }

  /** Encodes with the latest schema. @throws EncodeError when the value does not fit it */
  encodeBody(value: T): Buffer {
    return this.encodeBodyAs(this.latest.version, value);
  }

  /** {@link encodeBody} after `prefix` (a wire-format header), in one buffer. */
  encodeBodyAfter(prefix: Uint8Array, value: T): Buffer {
    return this.encodeBodyAs(this.latest.version, value, prefix);
  }

  /**
   * Encodes with a given version; `value` must be that version's TypeScript form. For fixtures
   * and migrations — the engine always writes the latest.
   */
  encodeBodyAs(version: number, value: unknown, prefix: Uint8Array = NO_PREFIX): Buffer {
    const { type } = this.version(version);
    const avroValue = this.#converter.toAvro(type, value);
    try {
      return writeAfter(prefix, type, avroValue);
    } catch (err) {
      const paths: string[] = [];
      type.isValid(avroValue, { errorHook: (path) => paths.push(path.join('.')) });
      const where = paths.length > 0 ? ` at ${paths.join(', ')}` : '';
      throw new EncodeError(EncodeErrorCode.InvalidValue, `invalid ${this.name}${where}`, paths, { cause: err });
    }
  }

  /**
   * Decodes a body written with `writer`, resolving it to the latest schema (new fields get their
   * defaults).
   * @throws DecodeError
   */
  decodeBody(body: Uint8Array, writer: WriterSchema): T {
    const reader = this.latest;
    const resolver = writer.fingerprint === reader.fingerprint ? undefined : this.#resolverFor(writer.type);
    return this.#decode(reader.type, writer.type, body, resolver) as T;
  }

  /** Decodes with one version as both writer and reader (its own TypeScript form). */
  decodeBodyAs(version: number, body: Uint8Array): unknown {
    const { type } = this.version(version);
    return this.#decode(type, type, body, undefined);
  }

  #resolverFor(writer: Type): Resolver {
    let resolver = this.#resolvers.get(writer);
    if (resolver === undefined) {
      try {
        // avsc keeps the resolver of a union branch it tried under a mismatched record name in its
        // registry and reuses it for a later identical union, which then fails to read. Handing it
        // a registry that only returns resolvers whose reader and writer names match avoids that.
        const registry = new Proxy<Record<string, Resolver>>(
          {},
          { get: (target, key) => (typeof key === 'string' && key.split(':')[0] === key.split(':')[1] ? target[key] : undefined) },
        );
        resolver = this.latest.type.createResolver(writer, { registry } as never);
      } catch (err) {
        throw new DecodeError(
          DecodeErrorCode.IncompatibleSchema,
          `${this.name}: writer schema cannot be read as the latest version: ${(err as Error).message}`,
          { cause: err },
        );
      }
      this.#resolvers.set(writer, resolver);
    }
    return resolver;
  }

  #decode(reader: Type, writer: Type, body: Uint8Array, resolver: Resolver | undefined): unknown {
    const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    checkAvroBounds(writer, buf);
    let decoded: { value: unknown; offset: number };
    try {
      decoded = reader.decode(buf, 0, resolver);
    } catch (err) {
      throw new DecodeError(DecodeErrorCode.InvalidBody, `${this.name}: ${(err as Error).message}`, { cause: err });
    }
    if (decoded.offset !== buf.length) {
      throw new DecodeError(DecodeErrorCode.InvalidBody, `${this.name}: body does not end where the record does`);
    }
    try {
      return this.#converter.fromAvro(reader, decoded.value);
    } catch (err) {
      throw new DecodeError(DecodeErrorCode.InvalidValue, `${this.name}: ${(err as Error).message}`, { cause: err });
    }
  }
}

const NO_PREFIX = new Uint8Array(0);
/** Records above this size are written into a buffer of their own rather than growing the scratch one for good. */
const MAX_SCRATCH_BYTES = 1 << 20;
/** Where records are written before their size is known; grown to the largest record seen, up to MAX_SCRATCH_BYTES. */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * `prefix` then `value` in Avro, in a buffer of exactly that size. avsc's `toBuffer` writes into a
 * scratch buffer too, but returns a zero-filled copy outside Node's buffer pool, which the caller
 * then copied once more after its header: two allocations per record, one of them unpooled.
 */
function writeAfter(prefix: Uint8Array, type: Type, value: unknown): Buffer {
  let into = scratch;
  into.set(prefix, 0);
  let end = type.encode(value, into, prefix.length);
  if (end < 0) {
    // avsc answers the shortfall as a negative number: the record needs `into.length - end` bytes.
    into = Buffer.allocUnsafeSlow(Math.max(into.length * 2, into.length - end));
    if (into.length <= MAX_SCRATCH_BYTES) scratch = into;
    into.set(prefix, 0);
    end = type.encode(value, into, prefix.length);
  }
  const out = Buffer.allocUnsafe(end);
  into.copy(out, 0, 0, end);
  return out;
}
