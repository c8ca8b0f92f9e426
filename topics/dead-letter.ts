import type { LogRecord, OutgoingRecord } from './log/log.js';

/** Header names of a dead-lettered record; the value and key are the original bytes, unchanged unless `truncated` says otherwise. */
export const DeadLetterHeaders = {
  reason: 'logbook.dlq.reason',
  code: 'logbook.dlq.code',
  /** The step of handling the input that failed: route, decode, validate, apply, encode, tasks, size, guard, quarantine, timer; ingress for a business record an ingress mapping could not map. */
  step: 'logbook.dlq.step',
  sourceTopic: 'logbook.dlq.source.topic',
  sourcePartition: 'logbook.dlq.source.partition',
  sourceOffset: 'logbook.dlq.source.offset',
  /** Present when the original was too large to copy whole: what was cut (the source position finds the original). */
  truncated: 'logbook.dlq.truncated',
} as const;

/**
 * Largest part of an original record a dead letter copies. A dead letter must always fit in a
 * record (a 3 MB poison record once made its dead letter too large to write, and the shard looped
 * on it); beyond this the source position in the headers finds the original while it is retained.
 */
export const DEAD_LETTER_MAX_VALUE_BYTES = 64 * 1024;
/** Largest key and largest set of original headers a dead letter copies. */
export const DEAD_LETTER_MAX_KEY_BYTES = 1024;
export const DEAD_LETTER_MAX_HEADER_BYTES = 16 * 1024;
/** Longest reason kept (an error message can quote a whole payload). */
const MAX_REASON_CHARS = 2_000;

/** Where a dead letter came from and why. */
export interface DeadLetterCause {
  readonly code: string;
  readonly reason: string;
  /** The step that failed (see {@link DeadLetterHeaders.step}); absent for dead letters written by tools. */
  readonly step?: string;
}

/**
 * The dead-letter record for an input that could not be decoded or applied: the original key,
 * value and headers, plus the reason, a stable error code, the step and the source position, so
 * an operator can inspect it and replay it once fixed. Nothing is lost: an original too large to
 * copy keeps a bounded prefix and says so, and its position still names it.
 */
export function deadLetterRecord(deadLetterTopic: string, source: LogRecord, code: string, reason: string, step?: string): OutgoingRecord {
  return boundedDeadLetter(deadLetterTopic, source, { code, reason, ...(step ? { step } : {}) });
}

/** {@link deadLetterRecord} with the cause as an object. */
export function boundedDeadLetter(deadLetterTopic: string, source: LogRecord, cause: DeadLetterCause): OutgoingRecord {
  const cut: string[] = [];
  const capped = (bytes: Buffer | null, max: number, what: string): Buffer | null => {
    if (!bytes || bytes.length <= max) return bytes;
    cut.push(`${what} ${bytes.length} bytes`);
    return bytes.subarray(0, max);
  };
  const key = capped(source.key, DEAD_LETTER_MAX_KEY_BYTES, 'key');
  const value = capped(source.value, DEAD_LETTER_MAX_VALUE_BYTES, 'value');
  const headerBytes = Object.entries(source.headers).reduce((n, [k, v]) => n + Buffer.byteLength(k) + v.length, 0);
  if (headerBytes > DEAD_LETTER_MAX_HEADER_BYTES) cut.push(`headers ${headerBytes} bytes (dropped)`);
  const original = headerBytes > DEAD_LETTER_MAX_HEADER_BYTES ? {} : source.headers;
  const reason = cause.reason.length > MAX_REASON_CHARS ? `${cause.reason.slice(0, MAX_REASON_CHARS)}…` : cause.reason;
  return {
    topic: deadLetterTopic,
    key,
    value,
    headers: {
      ...original,
      [DeadLetterHeaders.reason]: reason,
      [DeadLetterHeaders.code]: cause.code,
      ...(cause.step ? { [DeadLetterHeaders.step]: cause.step } : {}),
      [DeadLetterHeaders.sourceTopic]: source.topic,
      [DeadLetterHeaders.sourcePartition]: String(source.partition),
      [DeadLetterHeaders.sourceOffset]: String(source.offset),
      ...(cut.length > 0 ? { [DeadLetterHeaders.truncated]: `kept a prefix of: ${cut.join(', ')}` } : {}),
    },
  };
}

/** Result of decoding a batch of inputs: what decoded, and dead letters for what did not. */
export interface DecodedInputs<T> {
  readonly decoded: Array<{ readonly record: LogRecord; readonly value: T }>;
  readonly deadLetters: OutgoingRecord[];
}

/**
 * Decodes every record with `decode`; a record that throws becomes a dead letter carrying the
 * error's code and message, and the others go on. One bad record never stops a batch.
 */
export async function decodeOrDeadLetter<T>(
  records: readonly LogRecord[],
  decode: (record: LogRecord) => T | Promise<T>,
  deadLetterTopic: string,
): Promise<DecodedInputs<T>> {
  const result: DecodedInputs<T> = { decoded: [], deadLetters: [] };
  for (const record of records) {
    try {
      result.decoded.push({ record, value: await decode(record) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : String(error);
      result.deadLetters.push(deadLetterRecord(deadLetterTopic, record, typeof code === 'string' ? code : 'DECODE_FAILED', message, 'decode'));
    }
  }
  return result;
}
