import type { Log } from '../../topics/log/log.js';
import { topicCatalog } from '../../topics/catalog.js';

/**
 * Counting what the engine wrote to its topics between two moments, for the records/s figure of
 * sol-ratio: end offsets are snapshotted per partition, and the committed data records between two
 * snapshots are then read back read_committed and counted. Offsets alone would overcount: every
 * transaction also writes a commit marker into each partition it touched, and an aborted
 * transaction's records occupy offsets too; both show in `offsets` but not in `records`.
 */

/** A topic and its partition count. */
export interface CountedTopic {
  readonly name: string;
  readonly partitions: number;
}

/** The read_committed end offset of every partition, by topic. */
export type OffsetSnapshot = ReadonlyMap<string, readonly number[]>;

/** What a topic received between two snapshots. */
export interface TopicGrowth {
  /** Committed data records (markers and aborted records excluded). */
  readonly records: number;
  /** Offsets consumed: records plus transaction markers plus aborted records. */
  readonly offsets: number;
}

/** Snapshots the end offsets of every partition of `topics`, all requests at once. */
export async function snapshotEndOffsets(log: Log, topics: readonly CountedTopic[]): Promise<OffsetSnapshot> {
  const entries = await Promise.all(
    topics.map(async (t) => [t.name, await Promise.all(Array.from({ length: t.partitions }, (_, p) => log.endOffset(t.name, p)))] as const),
  );
  return new Map(entries);
}

/** Reads back each partition between the snapshots and counts its committed data records. */
export async function growthBetween(log: Log, before: OffsetSnapshot, after: OffsetSnapshot): Promise<Record<string, TopicGrowth>> {
  const growth: Record<string, TopicGrowth> = {};
  for (const [topic, ends] of after) {
    let records = 0;
    let offsets = 0;
    for (let p = 0; p < ends.length; p++) {
      const from = before.get(topic)?.[p] ?? 0;
      const until = ends[p]!;
      offsets += until - from;
      if (until > from) records += (await log.readPartition(topic, p, from, () => undefined, { untilOffset: until })).recordsRead;
    }
    growth[topic] = { records, offsets };
  }
  return growth;
}

/**
 * Waits until no partition of `topics` grows for a second (the engine has worked off earlier load),
 * for at most `maxSeconds`. Resolves with the seconds waited, or `null` if the topics never went quiet.
 */
export async function waitUntilQuiet(log: Log, topics: readonly CountedTopic[], maxSeconds: number): Promise<number | null> {
  const began = Date.now();
  let last = await snapshotEndOffsets(log, topics);
  while (Date.now() - began < maxSeconds * 1000) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = await snapshotEndOffsets(log, topics);
    if ([...now].every(([topic, ends]) => ends.every((end, p) => end === last.get(topic)?.[p]))) return Math.round((Date.now() - began) / 100) / 10;
    last = now;
  }
  return null;
}

/**
 * The topics a W1 run writes to: the engine's fixed topics and the `bench` queue's task topics (the
 * other queues' task topics carry nothing), with their partition counts.
 */
export async function benchTopics(log: Log, prefix: string, shards: number): Promise<CountedTopic[]> {
  const catalog = topicCatalog({ prefix, shards });
  const names = [...catalog.fixedTopics.map((t) => t.name), ...Object.values(catalog.taskTopics('default', 'bench'))];
  return [...(await log.admin.describeTopics(names)).values()].map((t) => ({ name: t.name, partitions: t.partitions }));
}

/** Committed data records of every topic together. */
export function totalRecords(growth: Readonly<Record<string, TopicGrowth>>): number {
  return Object.values(growth).reduce((n, g) => n + g.records, 0);
}
