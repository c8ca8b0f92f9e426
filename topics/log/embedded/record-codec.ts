import type { LogRecord } from '../log.js';

/**
 * Storage format of one record in the embedded log. Length-prefixed fields, -1 for null, so a
 * record is read back exactly as written (null key vs empty key, tombstones).
 */
export interface StoredRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, Buffer>>;
  readonly timestamp: number;
}

/** Encodes a record for storage. */
export function encodeStoredRecord(record: StoredRecord): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.writeDoubleLE(record.timestamp, 0);
  header.writeInt32LE(Object.keys(record.headers).length, 8);
  parts.push(header);
  pushBytes(parts, record.key);
  pushBytes(parts, record.value);
  for (const [name, value] of Object.entries(record.headers)) {
    pushBytes(parts, Buffer.from(name, 'utf8'));
    pushBytes(parts, value);
  }
  return Buffer.concat(parts);
}

function pushBytes(parts: Buffer[], bytes: Buffer | null): void {
  const length = Buffer.alloc(4);
  length.writeInt32LE(bytes === null ? -1 : bytes.length, 0);
  parts.push(length);
  if (bytes !== null) parts.push(bytes);
}

/** Decodes a stored record into a `LogRecord` at the given position. */
export function decodeStoredRecord(bytes: Buffer, topic: string, partition: number, offset: number): LogRecord {
  let at = 0;
  const timestamp = bytes.readDoubleLE(at);
  const headerCount = bytes.readInt32LE(at + 8);
  at += 12;
  const readBytes = (): Buffer | null => {
    const length = bytes.readInt32LE(at);
    at += 4;
    if (length < 0) return null;
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  const key = readBytes();
  const value = readBytes();
  const headers: Record<string, Buffer> = {};
  for (let i = 0; i < headerCount; i++) {
    const name = readBytes()!.toString('utf8');
    headers[name] = readBytes() ?? Buffer.alloc(0);
  }
  return { topic, partition, offset, key, value, headers, timestamp };
}
