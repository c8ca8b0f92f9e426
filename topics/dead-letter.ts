import type { LogRecord, OutgoingRecord } from './log/log.js';

/** Header names of a dead-lettered record; the value and key are the original bytes, unchanged. */
export const DeadLetterHeaders = {
  reason: 'logbook.dlq.reason',
  code: 'logbook.dlq.code',
  sourceTopic: 'logbook.dlq.source.topic',
  sourcePartition: 'logbook.dlq.source.partition',
  sourceOffset: 'logbook.dlq.source.offset',
} as const;

/**
 * The dead-letter record for an input that could not be decoded or applied: the original key,
 * value and headers, plus the reason, a stable error code and the source position, so an operator
 * can inspect it and replay it once fixed. Nothing is lost.
 */
export function deadLetterRecord(deadLetterTopic: string, source: LogRecord, code: string, reason: string): OutgoingRecord {
  return {
    topic: deadLetterTopic,
    key: source.key,
    value: source.value,
    headers: {
      ...source.headers,
      [DeadLetterHeaders.reason]: reason,
      [DeadLetterHeaders.code]: code,
      [DeadLetterHeaders.sourceTopic]: source.topic,
      [DeadLetterHeaders.sourcePartition]: String(source.partition),
      [DeadLetterHeaders.sourceOffset]: String(source.offset),
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
      result.deadLetters.push(deadLetterRecord(deadLetterTopic, record, typeof code === 'string' ? code : 'DECODE_FAILED', message));
    }
  }
  return result;
}
