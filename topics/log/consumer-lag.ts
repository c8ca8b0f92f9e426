import type { Log } from './log.js';

/**
 * Up to this many offsets behind, lag is counted record by record; beyond it the offsets are
 * counted, which overstates it only by the transaction markers among them.
 */
const COUNTED_LAG_LIMIT = 1_000;

/** How far a consumer at `position` is behind, in records it has yet to read. */
export interface ConsumerLag {
  /** Committed records from `position` to the end: transaction markers and aborted records are not counted. */
  readonly records: number;
  /** The read_committed end of the partition when it was measured. */
  readonly endOffset: number;
}

/**
 * The true lag of a consumer at `position`. The end offset minus the position counts the commit
 * marker every transaction leaves behind its records, so a partition written by transactions (a
 * task topic, a shard's inputs) would show a lag of 1 when its consumer has read everything;
 * alerts on that fire falsely. This counts the records a consumer would still be given.
 */
export async function consumerLag(log: Log, topic: string, partition: number, position: number): Promise<ConsumerLag> {
  const endOffset = await log.endOffset(topic, partition);
  if (endOffset <= position) return { records: 0, endOffset };
  if (endOffset - position > COUNTED_LAG_LIMIT) return { records: endOffset - position, endOffset };
  const read = await log.readPartition(topic, partition, position, () => undefined, { untilOffset: endOffset });
  return { records: read.recordsRead, endOffset };
}
