import { EventEmitter } from 'node:events';
import { openKvStore, type KvOperation, type KvStore } from '../../../state-stores/kv-store.js';
import { FencedError, LogbookError } from '../../errors.js';
import { partitionForKey } from '../../partitioner.js';
import type {
  GroupConsumer,
  GroupConsumerOptions,
  InputPositions,
  Log,
  LogIdentity,
  LogRecord,
  OutgoingRecord,
  Producer,
  ReadOptions,
  ReadResult,
  RecordPosition,
  TopicAdmin,
  TopicDescription,
  TopicSpec,
  Transaction,
  WrittenPartition,
  TransactionalProducer,
} from '../log.js';
import { assertRecordsFit, toBuffer } from '../record-size.js';
import { EmbeddedGroups } from './embedded-group.js';
import { decodeStoredRecord, encodeStoredRecord } from './record-codec.js';

/** Options of the embedded log. */
export interface EmbeddedLogOptions {
  /** Directory of the log's LevelDB; one process at a time may open it. */
  readonly directory: string;
  readonly maxRecordBytes: number;
}

const topicKey = (topic: string) => `t/${topic}`;
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const partitionPrefix = (topic: string, partition: number) => `r/${topic}/${hex(partition, 8)}/`;
const recordKey = (topic: string, partition: number, offset: number) => partitionPrefix(topic, partition) + hex(offset, 13);
const groupKey = (groupId: string, topic: string, partition: number) => `g/${groupId}/${topic}/${hex(partition, 8)}`;
const READ_CHUNK = 500;

/**
 * The embedded log: topics and partitions as LevelDB key ranges, a transaction as one atomic batch,
 * in-process tailing. It is the single-node dev server's log and passes the same conformance suite
 * as Kafka. All writes go through one queue, so offsets become visible in order.
 */
export class EmbeddedLog implements Log {
  readonly kind = 'embedded' as const;
  readonly admin: TopicAdmin;
  readonly maxRecordBytes: number;
  /** Emits `topic/partition` whenever records are appended there. */
  readonly appended = new EventEmitter();
  private readonly topics = new Map<string, TopicSpec>();
  private readonly nextOffsets = new Map<string, number>();
  private readonly epochs = new Map<string, number>();
  private readonly groups: EmbeddedGroups;
  private writeQueue: Promise<unknown> = Promise.resolve();
  private roundRobin = 0;
  private closed = false;

  private constructor(
    readonly store: KvStore,
    options: EmbeddedLogOptions,
  ) {
    this.maxRecordBytes = options.maxRecordBytes;
    this.appended.setMaxListeners(0);
    this.admin = {
      createTopics: (specs) => this.createTopics(specs),
      describeTopics: (names) => this.describeTopics(names),
      deleteTopics: (names) => this.deleteTopics(names),
      listTopics: async () => [...this.topics.keys()],
      groupMembers: async (groupId) => this.groups.membersOf(groupId).length,
      groupOffsets: async (groupId, topic) => {
        const partitions = this.topicSpec(topic).partitions;
        const offsets = new Map<number, number>();
        for (let p = 0; p < partitions; p++) offsets.set(p, (await this.groupPositions(groupId, p, [topic]))[topic] ?? 0);
        return offsets;
      },
      brokerCount: async () => 1,
    };
    this.groups = new EmbeddedGroups(this);
  }

  /** Opens the log in `directory`; refuses with `DataDirectoryLockedError` if another process holds it. */
  static async open(options: EmbeddedLogOptions): Promise<EmbeddedLog> {
    const log = new EmbeddedLog(await openKvStore(options.directory), options);
    for await (const [key, value] of log.store.range({ gte: 't/', lt: 't0' })) {
      log.topics.set(key.slice(2), JSON.parse(value.toString('utf8')) as TopicSpec);
    }
    return log;
  }

  /** The spec of a topic, or a clear error if it does not exist. */
  topicSpec(topic: string): TopicSpec {
    const spec = this.topics.get(topic);
    if (!spec) throw new LogbookError('UNKNOWN_TOPIC', `topic ${topic} does not exist in the embedded log`);
    return spec;
  }

  async producer(): Promise<Producer> {
    return {
      send: (records) => this.append(records),
      close: async () => undefined,
    };
  }

  async transactionalProducer(transactionalId: string): Promise<TransactionalProducer> {
    // Initialising bumps the epoch, exactly like InitProducerId: every older holder is fenced.
    const epoch = (this.epochs.get(transactionalId) ?? 0) + 1;
    this.epochs.set(transactionalId, epoch);
    const checkEpoch = () => {
      if (this.epochs.get(transactionalId) !== epoch) {
        throw new FencedError(`transactional id ${transactionalId} was initialised by a newer owner`);
      }
    };
    let open = false;
    return {
      transactionalId,
      begin: async (): Promise<Transaction> => {
        checkEpoch();
        if (open) throw new LogbookError('TRANSACTION_IN_PROGRESS', `${transactionalId} already has an open transaction`);
        open = true;
        const pending: OutgoingRecord[] = [];
        const groupPositions: KvOperation[] = [];
        let finished = false;
        const finish = () => {
          if (finished) throw new LogbookError('TRANSACTION_FINISHED', 'the transaction was already committed or aborted');
          finished = true;
          open = false;
        };
        return {
          send: async (records) => {
            checkEpoch();
            assertRecordsFit(records, this.maxRecordBytes);
            records.forEach((r) => this.resolvePartition(r));
            pending.push(...records);
          },
          commitGroupPositions: async (groupId, partition, positions) => {
            checkEpoch();
            groupPositions.push(...groupPositionOperations(groupId, partition, positions));
          },
          commit: async () => {
            finish();
            const written = await this.enqueueWrite(async () => {
              checkEpoch();
              return this.writeRecords(pending, groupPositions);
            });
            return { written };
          },
          abort: async () => {
            finish();
            pending.length = 0;
            groupPositions.length = 0;
          },
        };
      },
      close: async () => undefined,
    };
  }

  groupConsumer(options: GroupConsumerOptions): GroupConsumer {
    return this.groups.consumer(options);
  }

  async readPartition(
    topic: string,
    partition: number,
    fromOffset: number,
    onRecords: (records: readonly LogRecord[]) => Promise<void> | void,
    options: ReadOptions = {},
  ): Promise<ReadResult> {
    const end = options.untilOffset ?? (await this.endOffset(topic, partition));
    let position = fromOffset;
    let recordsRead = 0;
    while (position < end) {
      options.signal?.throwIfAborted();
      const chunk = await this.readRange(topic, partition, position, end, READ_CHUNK);
      if (chunk.length === 0) break;
      recordsRead += chunk.length;
      position = chunk[chunk.length - 1]!.offset + 1;
      await onRecords(chunk);
    }
    // Embedded offsets are contiguous, so the end is reached whenever the loop stops.
    return { nextOffset: Math.max(position, end), endOffset: end, recordsRead };
  }

  /** Reads up to `limit` records of a partition in `[from, until)`. */
  async readRange(topic: string, partition: number, from: number, until: number, limit: number): Promise<LogRecord[]> {
    const records: LogRecord[] = [];
    const range = { gte: recordKey(topic, partition, from), lt: recordKey(topic, partition, until), limit };
    for await (const [key, value] of this.store.range(range)) {
      const offset = Number.parseInt(key.slice(key.lastIndexOf('/') + 1), 16);
      records.push(decodeStoredRecord(value, topic, partition, offset));
    }
    return records;
  }

  /** Stores a group's committed positions (the embedded stand-in for Kafka's offset commits). */
  async commitGroupPositions(groupId: string, partition: number, positions: InputPositions): Promise<void> {
    await this.enqueueWrite(() => this.store.batch(groupPositionOperations(groupId, partition, positions)));
  }

  /** A group's committed positions of partition p; 0 where nothing was committed. */
  async groupPositions(groupId: string, partition: number, topics: readonly string[]): Promise<InputPositions> {
    const positions: Record<string, number> = {};
    for (const topic of topics) {
      const raw = await this.store.get(groupKey(groupId, topic, partition));
      positions[topic] = raw ? Number(raw.toString()) : 0;
    }
    return positions;
  }

  async endOffset(topic: string, partition: number): Promise<number> {
    this.topicSpec(topic);
    return this.enqueueWrite(() => this.nextOffset(topic, partition));
  }

  async identity(): Promise<LogIdentity> {
    return { kind: 'embedded' };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.groups.stopAll();
    await this.writeQueue.catch(() => undefined);
    await this.store.close();
  }

  private async append(records: readonly OutgoingRecord[]): Promise<RecordPosition[]> {
    assertRecordsFit(records, this.maxRecordBytes);
    const positions = records.map((r) => ({ topic: r.topic, partition: this.resolvePartition(r) }));
    await this.enqueueWrite(() => this.writeRecords(records));
    return positions;
  }

  private resolvePartition(record: OutgoingRecord): number {
    const spec = this.topicSpec(record.topic);
    if (record.partition !== undefined) {
      if (!Number.isInteger(record.partition) || record.partition < 0 || record.partition >= spec.partitions) {
        throw new LogbookError('UNKNOWN_PARTITION', `${record.topic} has no partition ${record.partition}`);
      }
      return record.partition;
    }
    if (record.key === null) return this.roundRobin++ % spec.partitions;
    return partitionForKey(record.key, spec.partitions);
  }

  /**
   * Appends the records (and any group positions committed with them) in one atomic batch;
   * resolves with the next offset of each partition written.
   */
  private async writeRecords(records: readonly OutgoingRecord[], groupPositions: readonly KvOperation[] = []): Promise<WrittenPartition[]> {
    const operations: KvOperation[] = [...groupPositions];
    const touched = new Map<string, number>();
    for (const record of records) {
      const partition = this.resolvePartition(record);
      const id = `${record.topic}/${partition}`;
      const offset = touched.get(id) ?? (await this.nextOffset(record.topic, partition));
      touched.set(id, offset + 1);
      const headers = Object.fromEntries(Object.entries(record.headers ?? {}).map(([k, v]) => [k, toBuffer(v)]));
      const stored = encodeStoredRecord({
        key: record.key === null ? null : toBuffer(record.key),
        value: record.value,
        headers,
        timestamp: record.timestamp ?? Date.now(),
      });
      operations.push({ type: 'put', key: recordKey(record.topic, partition, offset), value: stored });
    }
    await this.store.batch(operations);
    for (const [id, next] of touched) this.nextOffsets.set(id, next);
    for (const id of touched.keys()) this.appended.emit(id);
    return [...touched].map(([id, nextOffset]) => {
      const cut = id.lastIndexOf('/');
      return { topic: id.slice(0, cut), partition: Number(id.slice(cut + 1)), nextOffset };
    });
  }

  private async nextOffset(topic: string, partition: number): Promise<number> {
    const id = `${topic}/${partition}`;
    const known = this.nextOffsets.get(id);
    if (known !== undefined) return known;
    let next = 0;
    const prefix = partitionPrefix(topic, partition);
    for await (const [key] of this.store.range({ gte: prefix, lt: `${prefix}~`, reverse: true, limit: 1 })) {
      next = Number.parseInt(key.slice(prefix.length), 16) + 1;
    }
    this.nextOffsets.set(id, next);
    return next;
  }

  /** Serialises writes so that offsets become visible in order and a batch is never torn. */
  private enqueueWrite<T>(work: () => Promise<T>): Promise<T> {
    const result = this.writeQueue.then(work);
    this.writeQueue = result.catch(() => undefined);
    return result;
  }

  private async createTopics(specs: readonly TopicSpec[]): Promise<void> {
    const fresh = specs.filter((s) => !this.topics.has(s.name));
    if (fresh.length === 0) return;
    await this.store.batch(fresh.map((s) => ({ type: 'put', key: topicKey(s.name), value: Buffer.from(JSON.stringify(s)) })));
    for (const spec of fresh) this.topics.set(spec.name, spec);
  }

  private async describeTopics(names: readonly string[]): Promise<Map<string, TopicDescription>> {
    const result = new Map<string, TopicDescription>();
    for (const name of names) {
      const spec = this.topics.get(name);
      if (spec) result.set(name, { name, partitions: spec.partitions, partitionsWithoutLeader: 0 });
    }
    return result;
  }

  private async deleteTopics(names: readonly string[]): Promise<void> {
    await this.enqueueWrite(async () => {
      for (const name of names) {
        await this.store.clear({ gte: `r/${name}/`, lt: `r/${name}/~` });
        await this.store.batch([{ type: 'del', key: topicKey(name) }]);
        this.topics.delete(name);
        for (const id of [...this.nextOffsets.keys()]) if (id.startsWith(`${name}/`)) this.nextOffsets.delete(id);
      }
    });
  }
}

/** The store writes that commit a group's positions of one partition. */
function groupPositionOperations(groupId: string, partition: number, positions: InputPositions): KvOperation[] {
  return Object.entries(positions).map(([topic, offset]) => ({ type: 'put', key: groupKey(groupId, topic, partition), value: Buffer.from(String(offset)) }));
}
