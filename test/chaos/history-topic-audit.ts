import { historyKey } from '../../topics/catalog.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';

/**
 * The chaos audit of the raw history topic, as an analyst's consumer sees it (read_committed, from
 * the beginning, every record kept): each event key `ns/workflowId/runId/eventId` must appear
 * exactly once, each record's key must be the key of the event it carries, each record must sit on
 * its workflow's shard, and each run's event ids must be 1..n without a gap. The HTTP history
 * cannot show a duplicate (the owner's store is keyed by event id); the topic can.
 *
 * Pure: the reader (history-topic-reader.ts) decodes the records and hands them in.
 */

/** One record of the history topic, decoded (or not) by the reader. */
export interface HistoryTopicRecord {
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  /** A digest of the value bytes, so two copies of a key can be told identical or not. */
  readonly digest: string;
  /** The event, or undefined for a tombstone or an undecodable value. */
  readonly event?: HistoryEvent;
  /** Why the value could not be decoded (absent for a tombstone). */
  readonly decodeError?: string;
}

/** A key found more than once. */
export interface DuplicatedKey {
  readonly key: string;
  readonly copies: number;
  readonly positions: ReadonlyArray<{ readonly partition: number; readonly offset: number }>;
  /** Every copy has the same bytes (a re-sent write), or they differ (an overwrite). */
  readonly identical: boolean;
  readonly eventType: string;
  /** The first copy's event time (epoch ms). */
  readonly eventTime: number;
  /**
   * Offsets between the first two copies (same partition) that hold no committed record: a
   * transaction's commit marker takes one, so 0 means both copies were written in one transaction.
   */
  readonly offsetsWithoutRecordBetween: number | null;
}

/** A run whose event ids are not exactly 1..n. */
export interface GappedRun {
  readonly run: string;
  readonly highestEventId: number;
  /** Ids below the highest that no record carries (first 20). */
  readonly missing: readonly number[];
}

/** A record whose key or partition does not match its event. */
export interface MisplacedRecord {
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  readonly expected: string;
}

/** What the audit found. */
export interface HistoryTopicAudit {
  readonly records: number;
  readonly tombstones: number;
  readonly undecodable: number;
  readonly undecodableExamples: ReadonlyArray<{ readonly partition: number; readonly offset: number; readonly error: string }>;
  /** Distinct event keys. */
  readonly events: number;
  readonly runs: number;
  /** Records beyond the first of their key: the figure the invariant asks to be 0. */
  readonly duplicatedEvents: number;
  readonly duplicatedKeys: number;
  readonly duplicates: readonly DuplicatedKey[];
  readonly gappedRuns: number;
  readonly gaps: readonly GappedRun[];
  readonly keyMismatches: number;
  readonly keyMismatchExamples: readonly MisplacedRecord[];
  readonly wrongShard: number;
  readonly wrongShardExamples: readonly MisplacedRecord[];
}

/** The audit and each run's events (one per event id, in id order), keyed `ns/workflowId/runId`. */
export interface HistoryTopicAuditResult {
  readonly audit: HistoryTopicAudit;
  readonly runs: ReadonlyMap<string, readonly HistoryEvent[]>;
}

const LISTED = 50;

/** Audits the records of the history topic; `shardOf` is the catalog's (namespace, workflowId) → shard. */
export function auditHistoryTopic(records: Iterable<HistoryTopicRecord>, shardOf: (namespace: string, workflowId: string) => number): HistoryTopicAuditResult {
  const copies = new Map<string, Copy[]>();
  const offsets = new Map<number, number[]>();
  const runs = new Map<string, Map<number, HistoryEvent>>();
  const undecodableExamples: Array<{ partition: number; offset: number; error: string }> = [];
  const keyMismatchExamples: MisplacedRecord[] = [];
  const wrongShardExamples: MisplacedRecord[] = [];
  let count = 0;
  let tombstones = 0;
  let undecodable = 0;
  let keyMismatches = 0;
  let wrongShard = 0;
  for (const record of records) {
    count++;
    const partitionOffsets = offsets.get(record.partition) ?? [];
    partitionOffsets.push(record.offset);
    offsets.set(record.partition, partitionOffsets);
    const { event } = record;
    if (!event) {
      if (record.decodeError === undefined) tombstones++;
      else if (undecodable++ < LISTED) undecodableExamples.push({ partition: record.partition, offset: record.offset, error: record.decodeError });
      continue;
    }
    const key = historyKey(event.namespace, event.workflowId, event.runId, event.eventId);
    const position = { partition: record.partition, offset: record.offset, key: record.key };
    if (record.key !== key && keyMismatches++ < LISTED) keyMismatchExamples.push({ ...position, expected: key });
    const shard = shardOf(event.namespace, event.workflowId);
    if (shard !== record.partition && wrongShard++ < LISTED) wrongShardExamples.push({ ...position, expected: `partition ${shard}` });
    const copy: Copy = { partition: record.partition, offset: record.offset, digest: record.digest, eventType: event.attributes.type, eventTime: event.eventTime };
    copies.set(key, [...(copies.get(key) ?? []), copy]);
    const run = `${event.namespace}/${event.workflowId}/${event.runId}`;
    const events = runs.get(run) ?? new Map<number, HistoryEvent>();
    if (!events.has(event.eventId)) events.set(event.eventId, event);
    runs.set(run, events);
  }
  for (const list of offsets.values()) list.sort((a, b) => a - b);
  const duplicates = duplicatedKeys(copies, offsets);
  const gaps = gappedRuns(runs);
  const ordered = new Map([...runs].map(([run, events]) => [run, [...events.values()].sort((a, b) => a.eventId - b.eventId)]));
  return {
    audit: {
      records: count,
      tombstones,
      undecodable,
      undecodableExamples,
      events: copies.size,
      runs: runs.size,
      duplicatedEvents: duplicates.reduce((sum, d) => sum + d.copies - 1, 0),
      duplicatedKeys: duplicates.length,
      duplicates: duplicates.slice(0, LISTED),
      gappedRuns: gaps.length,
      gaps: gaps.slice(0, LISTED),
      keyMismatches,
      keyMismatchExamples,
      wrongShard,
      wrongShardExamples,
    },
    runs: ordered,
  };
}

/** What the audit keeps of each record: enough to describe a duplicate, not the whole event. */
interface Copy {
  readonly partition: number;
  readonly offset: number;
  readonly digest: string;
  readonly eventType: string;
  readonly eventTime: number;
}

function duplicatedKeys(copies: ReadonlyMap<string, readonly Copy[]>, offsets: ReadonlyMap<number, readonly number[]>): DuplicatedKey[] {
  const found: DuplicatedKey[] = [];
  for (const [key, records] of copies) {
    if (records.length < 2) continue;
    found.push({
      key,
      copies: records.length,
      positions: records.map((r) => ({ partition: r.partition, offset: r.offset })),
      identical: records.every((r) => r.digest === records[0]!.digest),
      eventType: records[0]!.eventType,
      eventTime: records[0]!.eventTime,
      offsetsWithoutRecordBetween: emptyOffsetsBetween(records[0]!, records[1]!, offsets),
    });
  }
  return found;
}

/** Offsets strictly between two copies on one partition that no committed record holds (markers, aborted records). */
function emptyOffsetsBetween(a: Copy, b: Copy, offsets: ReadonlyMap<number, readonly number[]>): number | null {
  if (a.partition !== b.partition) return null;
  const [low, high] = a.offset < b.offset ? [a.offset, b.offset] : [b.offset, a.offset];
  const sorted = offsets.get(a.partition) ?? [];
  const between = firstAbove(sorted, high - 1) - firstAbove(sorted, low);
  return high - low - 1 - between;
}

/** The index of the first value above `value` in an ascending list. */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function gappedRuns(runs: ReadonlyMap<string, ReadonlyMap<number, HistoryEvent>>): GappedRun[] {
  const found: GappedRun[] = [];
  for (const [run, events] of runs) {
    const highestEventId = Math.max(...events.keys());
    if (events.size === highestEventId && events.has(1)) continue;
    const missing: number[] = [];
    for (let id = 1; id < highestEventId && missing.length < 20; id++) if (!events.has(id)) missing.push(id);
    found.push({ run, highestEventId, missing });
  }
  return found;
}
