import { auditKey, type TopicCatalog } from '../../topics/catalog.js';
import type { Log, LogRecord } from '../../topics/log/log.js';
import { partitionForKey } from '../../topics/partitioner.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { auditRecordCodec } from '../../topics/serde/record-codecs.js';
import type { Serde } from '../../topics/serde/serde.js';

/** Records read per step back through a partition. */
const WINDOW = 500;
/** Records one query reads at most per partition, so a query that matches little still answers fast. */
export const MAX_SCANNED_PER_PARTITION = 50_000;

/** What to read from the trail. */
export interface AuditQuery {
  readonly namespace?: string;
  readonly workflowId?: string;
  /** Only records at or after this time (epoch ms). */
  readonly since?: number;
  readonly limit: number;
}

/** The records found, newest first. */
export interface AuditPage {
  readonly records: AuditRecord[];
  /**
   * True when the scan stopped at its bound ({@link MAX_SCANNED_PER_PARTITION}) before the start of
   * the trail or `since`: older matching records may exist; narrow the query with `since` or a namespace.
   */
  readonly truncated: boolean;
}

/**
 * Reads the audit topic newest first, the order an operator asks in ("what happened lately?"):
 * each partition is read backwards in windows from its end until `limit` records match, the start
 * of the partition or `since` is reached, or the scan bound is hit. A namespace's records are all
 * in the partition its key hashes to, so a namespace query reads one partition; without one every
 * partition is read and the results are merged by time.
 */
export async function readAuditTrail(log: Pick<Log, 'admin' | 'endOffset' | 'readPartition'>, catalog: Pick<TopicCatalog, 'audit'>, serde: Serde, query: AuditQuery): Promise<AuditPage> {
  const described = (await log.admin.describeTopics([catalog.audit])).get(catalog.audit);
  if (!described) return { records: [], truncated: false };
  const partitions = query.namespace === undefined ? [...Array(described.partitions).keys()] : [partitionForKey(auditKey(query.namespace), described.partitions)];
  const pages = await Promise.all(partitions.map((p) => readPartitionBackwards(log, catalog.audit, p, serde, query)));
  const records = pages.flatMap((page) => page.records).sort((a, b) => b.time - a.time).slice(0, query.limit);
  return { records, truncated: pages.some((page) => page.truncated) };
}

async function readPartitionBackwards(log: Pick<Log, 'endOffset' | 'readPartition'>, topic: string, partition: number, serde: Serde, query: AuditQuery): Promise<AuditPage> {
  const found: AuditRecord[] = [];
  let until = await log.endOffset(topic, partition);
  let scanned = 0;
  while (until > 0 && found.length < query.limit) {
    if (scanned >= MAX_SCANNED_PER_PARTITION) return { records: found, truncated: true };
    const from = Math.max(0, until - WINDOW);
    const window: LogRecord[] = [];
    await log.readPartition(topic, partition, from, (records) => void window.push(...records), { untilOffset: until });
    scanned += until - from;
    until = from;
    const decoded = await decodeAll(serde, window);
    for (const record of decoded.reverse()) if (matches(record, query)) found.push(record);
    // Records of a partition are appended about in time order: a window wholly before `since` ends the scan.
    if (query.since !== undefined && decoded.every((record) => record.time < query.since!)) break;
  }
  return { records: found, truncated: false };
}

/** The window's records that decode, oldest first; one that does not is no audit record and is skipped. */
async function decodeAll(serde: Serde, records: readonly LogRecord[]): Promise<AuditRecord[]> {
  const decoded: AuditRecord[] = [];
  for (const record of records) {
    if (record.value === null) continue;
    try {
      decoded.push(await serde.decode(auditRecordCodec, record.value));
    } catch {
      continue;
    }
  }
  return decoded;
}

function matches(record: AuditRecord, query: AuditQuery): boolean {
  return (
    (query.namespace === undefined || record.namespace === query.namespace) &&
    (query.workflowId === undefined || record.workflowId === query.workflowId) &&
    (query.since === undefined || record.time >= query.since)
  );
}
