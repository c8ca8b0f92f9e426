import type { TopicCatalog } from '../topics/catalog.js';
import { workflowKey } from '../topics/catalog.js';
import { deadLetterRecord } from '../topics/dead-letter.js';
import type { LogRecord, OutgoingRecord } from '../topics/log/log.js';
import { partitionForKey } from '../topics/partitioner.js';
import type { Command } from '../topics/schemas/command/index.js';
import type { Serde } from '../topics/serde/index.js';
import { commandCodec } from '../topics/serde/index.js';

/** A decoded input that belongs to this shard. */
export interface ShardInput {
  readonly record: LogRecord;
  readonly key: string;
  readonly command: Command;
}

/** A batch's inputs sorted by fate: applied here, forwarded to their shard, or dead-lettered. */
export interface RoutedInputs {
  readonly inputs: ShardInput[];
  readonly forwards: OutgoingRecord[];
  readonly deadLetters: OutgoingRecord[];
}

/** Header naming where a forwarded record was first read. */
export const FORWARDED_FROM_HEADER = 'logbook.forwarded-from';

/**
 * Decodes and routes a batch of input records. A record keyed for another shard (a producer with
 * another partitioner) is never applied here: it is forwarded once to the right shard's internal
 * topic, and dead-lettered if it is misrouted again. Undecodable records and records whose key does
 * not match their body are dead-lettered with the reason; the rest of the batch goes on.
 */
export async function routeInputs(records: readonly LogRecord[], shard: number, catalog: TopicCatalog, serde: Serde): Promise<RoutedInputs> {
  const routed: RoutedInputs = { inputs: [], forwards: [], deadLetters: [] };
  const dead = (record: LogRecord, code: string, reason: string) => routed.deadLetters.push(deadLetterRecord(catalog.deadLetter, record, code, reason));
  for (const record of records) {
    if (record.key === null || record.value === null) {
      dead(record, 'MISSING_KEY_OR_VALUE', 'a command needs the key ns/workflowId and a value');
      continue;
    }
    const target = partitionForKey(record.key, catalog.shards);
    if (target !== shard) {
      if (record.headers[FORWARDED_FROM_HEADER]) {
        dead(record, 'MISROUTED', `keyed for shard ${target} but forwarded to shard ${shard}`);
        continue;
      }
      routed.forwards.push({
        topic: catalog.commandsInternal,
        partition: target,
        key: record.key,
        value: record.value,
        headers: { ...record.headers, [FORWARDED_FROM_HEADER]: `${record.topic}:${record.partition}:${record.offset}` },
      });
      continue;
    }
    let command: Command;
    try {
      command = await serde.decode(commandCodec, record.value);
    } catch (error) {
      // A registry outage is not the record's fault: fail the batch so it is retried, never dead-lettered.
      if ((error as { retriable?: unknown }).retriable === true) throw error;
      const code = (error as { code?: unknown }).code;
      dead(record, typeof code === 'string' ? code : 'DECODE_FAILED', error instanceof Error ? error.message : String(error));
      continue;
    }
    const key = workflowKey(command.namespace, command.workflowId);
    if (key !== record.key.toString('utf8')) {
      dead(record, 'KEY_MISMATCH', `the record key ${record.key.toString('utf8')} is not the command's ${key}`);
      continue;
    }
    routed.inputs.push({ record, key, command });
  }
  return routed;
}
