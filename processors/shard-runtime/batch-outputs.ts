import type { TopicCatalog } from '../../topics/catalog.js';
import { historyKey, workflowKey } from '../../topics/catalog.js';
import type { ChangelogRecord } from '../../state-stores/shard-store.js';
import type { OutgoingRecord } from '../../topics/log/log.js';
import type { Serde } from '../../topics/serde/index.js';
import { commandCodec, historyEventCodec, mutableStateSnapshotCodec, replyCodec, visibilityRowCodec } from '../../topics/serde/index.js';
import { partitionForKey } from '../../topics/partitioner.js';
import type { Command } from '../../topics/schemas/command/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { MutableStateSnapshot } from '../../topics/schemas/mutable-state-snapshot/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { VisibilityRow } from '../../topics/schemas/visibility-row/index.js';
import { POSITIONS_KEY } from './store-layout.js';

/**
 * Encodes what one batch produced into the records of its transaction, and remembers which of
 * them are changelog records the local store applies after the commit.
 */
export class BatchOutputs {
  /** Every record of the transaction, in order. */
  readonly records: OutgoingRecord[] = [];
  /** The changelog records (state, history, visibility) for the store, in commit order. */
  readonly changelog: ChangelogRecord[] = [];

  constructor(
    private readonly catalog: TopicCatalog,
    private readonly shard: number,
    private readonly serde: Serde,
  ) {}

  /** Encodes the records of one transition without adding them (so they can be size-checked first). */
  async encodeEvents(events: readonly HistoryEvent[]): Promise<OutgoingRecord[]> {
    const out: OutgoingRecord[] = [];
    for (const event of events) {
      out.push({
        topic: this.catalog.history,
        partition: this.shard,
        key: historyKey(event.namespace, event.workflowId, event.runId, event.eventId),
        value: await this.serde.encode(historyEventCodec, event, this.catalog.history),
        timestamp: event.eventTime,
      });
    }
    return out;
  }

  async encodeReplies(replies: readonly Reply[]): Promise<OutgoingRecord[]> {
    const out: OutgoingRecord[] = [];
    for (const reply of replies) {
      out.push({ topic: this.catalog.replies, key: reply.requestId, value: await this.serde.encode(replyCodec, reply, this.catalog.replies) });
    }
    return out;
  }

  /**
   * Encodes commands for other workflows onto the internal commands topic, keyed `ns/workflowId`
   * and on the target's shard, so they commit with the events that sent them (transactional outbox).
   */
  async encodeCommands(commands: readonly Command[]): Promise<OutgoingRecord[]> {
    const out: OutgoingRecord[] = [];
    for (const command of commands) {
      const key = workflowKey(command.namespace, command.workflowId);
      out.push({
        topic: this.catalog.commandsInternal,
        partition: partitionForKey(key, this.catalog.shards),
        key,
        value: await this.serde.encode(commandCodec, command, this.catalog.commandsInternal),
      });
    }
    return out;
  }

  async encodeVisibility(row: VisibilityRow | null): Promise<OutgoingRecord[]> {
    if (!row) return [];
    return [
      {
        topic: this.catalog.visibility,
        partition: this.shard,
        key: `${workflowKey(row.namespace, row.workflowId)}/${row.runId}`,
        value: await this.serde.encode(visibilityRowCodec, row, this.catalog.visibility),
      },
    ];
  }

  /** Adds records; those on changelog topics are also queued for the store. */
  add(records: readonly OutgoingRecord[]): void {
    for (const record of records) this.addOne(record);
  }

  /** Adds snapshot records, each queued for the store with the state it encodes, so the store derives its timers without decoding it. */
  addSnapshots(snapshots: ReadonlyArray<{ readonly record: OutgoingRecord; readonly state: MutableStateSnapshot | undefined }>): void {
    for (const { record, state } of snapshots) this.addOne(record, state);
  }

  private addOne(record: OutgoingRecord, decoded?: MutableStateSnapshot): void {
    this.records.push(record);
    const isChangelog = record.topic === this.catalog.history || record.topic === this.catalog.visibility || record.topic === this.catalog.state;
    if (isChangelog && record.partition === this.shard) {
      this.changelog.push({ topic: record.topic, key: record.key as string, value: record.value, ...(decoded ? { decoded } : {}) });
    }
  }

  /** Encodes the snapshot of a workflow as its changelog record (size-checked with the input that made it). */
  async encodeSnapshot(key: string, snapshot: MutableStateSnapshot): Promise<OutgoingRecord> {
    const value = await this.serde.encode(mutableStateSnapshotCodec, snapshot, this.catalog.state);
    return { topic: this.catalog.state, partition: this.shard, key, value };
  }

  /** Adds the shard's next input positions, committed atomically with everything else. */
  addPositions(value: Buffer): void {
    this.add([{ topic: this.catalog.state, partition: this.shard, key: POSITIONS_KEY, value }]);
  }
}
