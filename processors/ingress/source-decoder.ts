import avro from 'avsc';
import { formatFingerprint, readConfluent, readSingleObject, schemaFingerprint, SchemaRegistryError, type SchemaRegistryClient } from '../../topics/serde/index.js';
import type { IngressMapping } from './ingress-mapping.js';

/** Why a source value could not be decoded; becomes the dead letter's reason. */
export class SourceDecodeError extends Error {}

/**
 * Turns a source record's value bytes into the value a mapping reads fields from.
 * @throws SourceDecodeError when the record is at fault (it is dead-lettered); anything else (a
 *   registry that cannot answer) fails the batch, which is tried again from the committed offset
 */
export type SourceDecoder = (value: Buffer) => unknown;

/**
 * The decoder of a mapping's value format; an Avro schema is compiled once, here.
 * @param registry where an `avro-registry` source's writer schemas come from
 */
export function sourceDecoder(mapping: Pick<IngressMapping, 'format' | 'avroSchema'>, registry?: SchemaRegistryClient): SourceDecoder {
  if (mapping.format === 'json') return decodeJson;
  if (mapping.format === 'avro-registry') {
    if (!registry) throw new Error("an 'avro-registry' source needs a schema registry");
    return registryDecoder(registry, mapping.avroSchema === null ? undefined : avro.Type.forSchema(mapping.avroSchema as avro.Schema));
  }
  const type = avro.Type.forSchema(mapping.avroSchema as avro.Schema);
  const fingerprint = schemaFingerprint(mapping.avroSchema);
  return (bytes) => {
    let framed;
    try {
      framed = readSingleObject(bytes);
    } catch (error) {
      throw new SourceDecodeError(`the value is not Avro single-object encoded: ${(error as Error).message}`);
    }
    if (framed.fingerprint !== fingerprint) {
      throw new SourceDecodeError(`the value was written with schema fingerprint ${formatFingerprint(framed.fingerprint)}, not the mapping's ${formatFingerprint(fingerprint)}`);
    }
    try {
      return jsonSafe(type.fromBuffer(framed.body));
    } catch (error) {
      throw new SourceDecodeError(`the value does not decode with the mapping's Avro schema: ${(error as Error).message}`);
    }
  };
}

/** Values in the Confluent wire format, each writer schema fetched once by its id and resolved to `reader` when given. */
function registryDecoder(registry: SchemaRegistryClient, reader: avro.Type | undefined): SourceDecoder {
  /** Per writer schema id: its type and, with a reader schema, the resolver (built once). */
  const writers = new Map<number, Promise<{ type: avro.Type; resolver: avro.Resolver | undefined }>>();
  const writerOf = (id: number) => {
    let writer = writers.get(id);
    if (!writer) {
      writer = registry.getSchema(id).then((schema) => {
        const type = avro.Type.forSchema(schema as avro.Schema);
        return { type, resolver: reader?.createResolver(type) };
      });
      writers.set(id, writer);
      // Only an answer is remembered: a registry that failed is asked again for the next record.
      writer.catch(() => writers.delete(id));
    }
    return writer;
  };
  return async (bytes) => {
    let framed;
    try {
      framed = readConfluent(bytes);
    } catch (error) {
      throw new SourceDecodeError(`the value is not in the Confluent wire format (magic byte 0, 4-byte schema id, body): ${(error as Error).message}`);
    }
    let writer: { type: avro.Type; resolver: avro.Resolver | undefined };
    try {
      writer = await writerOf(framed.schemaId);
    } catch (error) {
      if (error instanceof SchemaRegistryError && error.status === 404) throw new SourceDecodeError(`the value names schema id ${framed.schemaId}, which the registry does not have`);
      // The registry down or refusing this node (5xx, 429, 401/403, no answer): not the record's fault, the batch waits.
      if (error instanceof SchemaRegistryError && registryUnavailable(error)) throw error;
      throw new SourceDecodeError(`schema id ${framed.schemaId} cannot be read as an Avro schema${reader ? " resolvable to the mapping's avroSchema" : ''}: ${(error as Error).message}`);
    }
    try {
      return jsonSafe(writer.resolver ? reader!.fromBuffer(framed.body, writer.resolver) : writer.type.fromBuffer(framed.body));
    } catch (error) {
      throw new SourceDecodeError(`the value does not decode with schema id ${framed.schemaId}${reader ? " resolved to the mapping's avroSchema" : ''}: ${(error as Error).message}`);
    }
  };
}

/** A registry failure that says nothing about the record: no answer, a server error, throttling, or this node refused. */
function registryUnavailable(error: SchemaRegistryError): boolean {
  const status = error.status;
  if (status === undefined) return /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|socket|timeout/i.test(`${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}`);
  return status >= 500 || status === 408 || status === 429 || status === 401 || status === 403;
}

function decodeJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SourceDecodeError(`the value is not JSON: ${(error as Error).message}`);
  }
}

/**
 * An Avro value as JSON can carry it to the workflow: bytes and fixed as base64 strings, maps and
 * records as plain objects. (avsc refuses longs beyond ±2^53 when decoding, so such a record is
 * dead-lettered.)
 */
function jsonSafe(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, jsonSafe(v)]));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}
