import { createHash } from 'node:crypto';
import type { TopicCatalog } from '../../topics/catalog.js';
import { DeadLetterHeaders } from '../../topics/dead-letter.js';
import type { Log } from '../../topics/log/log.js';
import { historyEventCodec, SingleObjectSerde } from '../../topics/serde/index.js';
import type { HistoryTopicRecord } from './history-topic-audit.js';
import type { DeadLetter } from './poison-figures.js';

/**
 * What the chaos audit reads after a run: the raw history topic and the dead-letter topic (both
 * read_committed, from the beginning, every record kept — the log's reader delivers committed
 * records only), and the workers' activity execution logs.
 */

/** Every record of the history topic, decoded where it can be. */
export async function readHistoryTopic(log: Log, catalog: TopicCatalog): Promise<HistoryTopicRecord[]> {
  const serde = new SingleObjectSerde();
  const records: HistoryTopicRecord[] = [];
  for (let p = 0; p < catalog.shards; p++) {
    await log.readPartition(catalog.history, p, 0, (batch) => {
      for (const r of batch) {
        const base = { partition: r.partition, offset: r.offset, key: r.key?.toString('utf8') ?? null, digest: r.value ? createHash('sha1').update(r.value).digest('hex') : '' };
        if (!r.value) {
          records.push(base);
          continue;
        }
        try {
          records.push({ ...base, event: serde.decodeSync(historyEventCodec, r.value) });
        } catch (error) {
          records.push({ ...base, decodeError: (error as Error).message });
        }
      }
    });
  }
  return records;
}

/** Every record of the dead-letter topic, with the reason and source position its headers carry. */
export async function readDeadLetters(log: Log, catalog: TopicCatalog): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  const header = (headers: Readonly<Record<string, Buffer>>, name: string) => headers[name]?.toString('utf8');
  const partitions = catalog.fixedTopics.find((t) => t.name === catalog.deadLetter)?.partitions ?? 1;
  for (let p = 0; p < partitions; p++) {
    await log.readPartition(catalog.deadLetter, p, 0, (batch) => {
      for (const r of batch) {
        const sourcePartition = header(r.headers, DeadLetterHeaders.sourcePartition);
        const sourceOffset = header(r.headers, DeadLetterHeaders.sourceOffset);
        letters.push({
          offset: r.offset,
          code: header(r.headers, DeadLetterHeaders.code) ?? '',
          reason: header(r.headers, DeadLetterHeaders.reason) ?? '',
          sourceTopic: header(r.headers, DeadLetterHeaders.sourceTopic) ?? '',
          sourcePartition: sourcePartition === undefined ? null : Number(sourcePartition),
          sourceOffset: sourceOffset === undefined ? null : Number(sourceOffset),
          valueBytes: r.value?.length ?? 0,
        });
      }
    });
  }
  return letters;
}
