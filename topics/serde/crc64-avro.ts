/**
 * The 64-bit Rabin fingerprint the Avro specification calls CRC-64-AVRO ("Schema Fingerprints"),
 * used by single-object encoding. avsc only offers md5/sha256, hence this.
 * @module
 */

/** The fingerprint of the empty string; also the polynomial of the table. */
export const crc64AvroEmpty = 0xc15d213aa4d7a795n;

const table: readonly bigint[] = buildTable();

function buildTable(): bigint[] {
  const entries: bigint[] = [];
  for (let i = 0; i < 256; i++) {
    let fp = BigInt(i);
    for (let j = 0; j < 8; j++) fp = (fp >> 1n) ^ (fp & 1n ? crc64AvroEmpty : 0n);
    entries.push(fp);
  }
  return entries;
}

/**
 * CRC-64-AVRO of some bytes (a string is taken as UTF-8), as an unsigned 64-bit bigint.
 * Java's `SchemaNormalization.fingerprint64` returns the same bits as a signed long
 * (`BigInt.asIntN(64, x)`).
 *
 * @example
 * crc64Avro('"int"') === BigInt.asUintN(64, 8247732601305521295n)
 */
export function crc64Avro(data: Uint8Array | string): bigint {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fp = crc64AvroEmpty;
  for (const byte of bytes) {
    // Index is the low byte of fp xor the input byte; table entries are < 2^64 so fp stays 64-bit.
    fp = (fp >> 8n) ^ (table[Number((fp ^ BigInt(byte)) & 0xffn)] as bigint);
  }
  return fp;
}
