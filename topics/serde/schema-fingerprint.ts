import { parsingCanonicalForm } from './canonical-form.js';
import { crc64Avro } from './crc64-avro.js';

/**
 * CRC-64-AVRO of a schema's Parsing Canonical Form: the fingerprint single-object encoding
 * writes, as an unsigned bigint.
 *
 * @example
 * schemaFingerprint('"string"') // 0x8f014872634503c7n
 */
export function schemaFingerprint(schema: unknown): bigint {
  return crc64Avro(parsingCanonicalForm(schema));
}

/** Formats a fingerprint as 16 hex digits (big-endian, as people read numbers). */
export function formatFingerprint(fingerprint: bigint): string {
  return fingerprint.toString(16).padStart(16, '0');
}
