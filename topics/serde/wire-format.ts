/**
 * Framing of encoded values on topics. Two formats coexist so a topic can move from one to the
 * other without a flag day: the first bytes tell them apart.
 * - Avro single-object encoding: `C3 01`, 8-byte little-endian CRC-64-AVRO fingerprint, body.
 * - Confluent wire format: `00`, 4-byte big-endian schema id, body.
 * @module
 */
import { DecodeError, DecodeErrorCode } from './decode-error.js';

/** Which framing a buffer uses. */
export const WireFormat = { SingleObject: 'single-object', Confluent: 'confluent' } as const;
/** @see WireFormat */
export type WireFormat = (typeof WireFormat)[keyof typeof WireFormat];

/** Bytes before the body in single-object encoding. */
export const singleObjectHeaderLength = 10;
/** Bytes before the body in the Confluent wire format. */
export const confluentHeaderLength = 5;

/**
 * Tells the framing from the first bytes.
 * @throws DecodeError `DECODE_UNKNOWN_FORMAT` for anything else (including an empty buffer)
 */
export function detectWireFormat(bytes: Uint8Array): WireFormat {
  if (bytes[0] === 0xc3 && bytes[1] === 0x01) return WireFormat.SingleObject;
  if (bytes[0] === 0x00) return WireFormat.Confluent;
  const head = Buffer.from(bytes.subarray(0, 2)).toString('hex');
  throw new DecodeError(DecodeErrorCode.UnknownFormat, `first bytes 0x${head || '(empty)'} are neither C301 nor 00`);
}

const headers = new Map<bigint, Buffer>();

/** The single-object header of a schema version: marker and fingerprint, made once per fingerprint. */
export function singleObjectHeader(fingerprint: bigint): Buffer {
  let header = headers.get(fingerprint);
  if (!header) {
    header = Buffer.alloc(singleObjectHeaderLength);
    header[0] = 0xc3;
    header[1] = 0x01;
    header.writeBigUInt64LE(fingerprint, 2);
    headers.set(fingerprint, header);
  }
  return header;
}

/** Frames a body with the single-object header. */
export function frameSingleObject(fingerprint: bigint, body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(singleObjectHeaderLength + body.length);
  out[0] = 0xc3;
  out[1] = 0x01;
  out.writeBigUInt64LE(fingerprint, 2);
  out.set(body, singleObjectHeaderLength);
  return out;
}

/** Splits a single-object buffer. @throws DecodeError for a wrong or short header */
export function readSingleObject(bytes: Buffer): { fingerprint: bigint; body: Buffer } {
  if (detectWireFormat(bytes) !== WireFormat.SingleObject) {
    throw new DecodeError(DecodeErrorCode.UnknownFormat, 'not single-object encoded');
  }
  if (bytes.length < singleObjectHeaderLength) {
    throw new DecodeError(DecodeErrorCode.Truncated, `single-object header needs 10 bytes, got ${bytes.length}`);
  }
  return { fingerprint: bytes.readBigUInt64LE(2), body: bytes.subarray(singleObjectHeaderLength) };
}

/** Frames a body with the Confluent header. */
export function frameConfluent(schemaId: number, body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(confluentHeaderLength + body.length);
  out[0] = 0x00;
  out.writeUInt32BE(schemaId, 1);
  out.set(body, confluentHeaderLength);
  return out;
}

/** Splits a Confluent-framed buffer. @throws DecodeError for a wrong or short header */
export function readConfluent(bytes: Buffer): { schemaId: number; body: Buffer } {
  if (detectWireFormat(bytes) !== WireFormat.Confluent) {
    throw new DecodeError(DecodeErrorCode.UnknownFormat, 'not in the Confluent wire format');
  }
  if (bytes.length < confluentHeaderLength) {
    throw new DecodeError(DecodeErrorCode.Truncated, `Confluent header needs 5 bytes, got ${bytes.length}`);
  }
  return { schemaId: bytes.readUInt32BE(1), body: bytes.subarray(confluentHeaderLength) };
}
