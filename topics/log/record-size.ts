import { RecordTooLargeError } from '../errors.js';
import type { OutgoingRecord } from './log.js';

/** Bytes a record occupies on the wire, near enough to enforce limits: key + value + headers. */
export function recordSize(record: OutgoingRecord): number {
  let size = byteLength(record.key) + byteLength(record.value);
  for (const [name, value] of Object.entries(record.headers ?? {})) size += Buffer.byteLength(name) + byteLength(value);
  return size;
}

function byteLength(value: Buffer | string | null | undefined): number {
  if (value == null) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.length;
}

/** Refuses, before anything is sent, a batch holding a record larger than `maxRecordBytes`. */
export function assertRecordsFit(records: readonly OutgoingRecord[], maxRecordBytes: number): void {
  for (const record of records) {
    const size = recordSize(record);
    if (size > maxRecordBytes) {
      throw new RecordTooLargeError(
        `a record for ${record.topic} is ${size} bytes, over the limit of ${maxRecordBytes} bytes (max record size); it was not sent`,
      );
    }
  }
}

/** Normalises keys and headers to bytes. */
export function toBuffer(value: Buffer | string): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}
