import avro from 'avsc';
import { formatFingerprint, readSingleObject, schemaFingerprint } from '../../topics/serde/index.js';
import type { IngressMapping } from './ingress-mapping.js';

/** Why a source value could not be decoded; becomes the dead letter's reason. */
export class SourceDecodeError extends Error {}

/** Turns a source record's value bytes into the value a mapping reads fields from. */
export type SourceDecoder = (value: Buffer) => unknown;

/** The decoder of a mapping's value format; an Avro schema is compiled once, here. */
export function sourceDecoder(mapping: Pick<IngressMapping, 'format' | 'avroSchema'>): SourceDecoder {
  if (mapping.format === 'json') return decodeJson;
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
