import type { Kafka } from 'kafkajs';
import { LogbookError } from '../../errors.js';
import type { LogRecord, ReadOptions, ReadResult } from '../log.js';
import { withoutAbortedRecords, type AbortedTransaction } from './aborted-transactions.js';
import { logError } from './kafka-errors.js';

/**
 * Reads one partition read_committed from an offset to its end without joining a consumer group.
 *
 * KafkaJS has no `assign()`; a throwaway group per restore would cost a join round (seconds with
 * the broker's default initial rebalance delay). So this reader uses KafkaJS's cluster and broker
 * objects (internal API, pinned by the exact kafkajs version in package.json) to send Fetch
 * requests itself, filters aborted and control records (aborted-transactions.ts: KafkaJS's own
 * filter can let an aborted record through), and moves its
 * position past transaction markers using each record batch's last offset, so 'caught up' is the
 * fetch position reaching the last stable offset — correct even when the log ends in markers.
 */

const READ_COMMITTED = 1;
const EMPTY_FETCH_LIMIT = 50;

interface RawMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  headers: Record<string, Buffer | Buffer[] | undefined>;
  isControlRecord?: boolean;
  batchContext?: { firstOffset: string; lastOffsetDelta: number; producerId?: string; inTransaction?: boolean };
}

interface RawPartitionData {
  partition: number;
  errorCode: number;
  highWatermark: string;
  lastStableOffset: string;
  abortedTransactions: AbortedTransaction[];
  messages: RawMessage[];
}

interface InternalBroker {
  fetch(request: object): Promise<{ responses: Array<{ topicName: string; partitions: RawPartitionData[] }> }>;
  listOffsets(request: object): Promise<{ responses: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> }>;
}

interface InternalCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  refreshMetadata(): Promise<void>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(args: { nodeId: string }): Promise<InternalBroker>;
}

type ClusterFactory = (options: { allowAutoTopicCreation: boolean; isolationLevel: number; metadataMaxAge?: number }) => InternalCluster;

/** Converts a raw KafkaJS message into our record type. */
export function toLogRecord(topic: string, partition: number, m: RawMessage): LogRecord {
  const headers: Record<string, Buffer> = {};
  for (const [name, value] of Object.entries(m.headers ?? {})) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value[value.length - 1]! : value;
  }
  return { topic, partition, offset: Number(m.offset), key: m.key, value: m.value, headers, timestamp: Number(m.timestamp) };
}

/** Low-level partition reads on one KafkaJS client. */
export class PartitionReader {
  private cluster: InternalCluster | undefined;
  private connecting: Promise<InternalCluster> | undefined;
  private closed = false;
  /**
   * Each broker's first fetch, which the others wait for: KafkaJS opens a broker's fetch connection
   * on the first fetch, and fetches that race to open it each open a socket, of which all but the
   * last are never closed.
   */
  private readonly firstFetch = new WeakMap<InternalBroker, Promise<unknown>>();

  constructor(
    private readonly kafka: Kafka,
    private readonly maxBytesPerFetch: number,
  ) {}

  /** The read_committed end offset (last stable offset) of a partition. */
  async endOffset(topic: string, partition: number): Promise<number> {
    return this.withLeader(topic, partition, async (broker) => {
      const response = await broker.listOffsets({
        replicaId: -1,
        isolationLevel: READ_COMMITTED,
        topics: [{ topic, partitions: [{ partition, timestamp: -1 }] }],
      });
      return Number(response.responses[0]!.partitions[0]!.offset);
    });
  }

  /** See `Log.readPartition`. */
  async read(
    topic: string,
    partition: number,
    fromOffset: number,
    onRecords: (records: readonly LogRecord[]) => Promise<void> | void,
    options: ReadOptions = {},
  ): Promise<ReadResult> {
    const end = options.untilOffset ?? (await this.endOffset(topic, partition));
    let position = fromOffset;
    let recordsRead = 0;
    let emptyFetches = 0;
    while (position < end) {
      options.signal?.throwIfAborted();
      const data = await this.fetchOnce(topic, partition, position, options.maxBytesPerFetch ?? this.maxBytesPerFetch);
      const next = nextPosition(data.messages, position);
      if (next === position) {
        // The broker returned nothing at a position below the end; retry briefly, never spin forever.
        if (++emptyFetches > EMPTY_FETCH_LIMIT) {
          throw new LogbookError('READ_STALLED', `reading ${topic}[${partition}] stalled at offset ${position} below its end ${end}`);
        }
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      emptyFetches = 0;
      const fetched = data.messages.filter((m) => Number(m.offset) >= position);
      const committed = withoutAbortedRecords(fetched, data.abortedTransactions)
        .filter((m) => !m.isControlRecord && Number(m.offset) < end)
        .map((m) => toLogRecord(topic, partition, m));
      position = Math.min(next, Math.max(end, position));
      if (committed.length > 0) {
        recordsRead += committed.length;
        await onRecords(committed);
      }
    }
    return { nextOffset: Math.max(position, fromOffset), endOffset: end, recordsRead };
  }

  async close(): Promise<void> {
    this.closed = true;
    // A connection still being made is closed once it is made, not leaked.
    const cluster = await this.connecting?.catch(() => undefined);
    this.cluster = undefined;
    this.connecting = undefined;
    await cluster?.disconnect();
  }

  private async fetchOnce(topic: string, partition: number, offset: number, maxBytes: number): Promise<RawPartitionData> {
    return this.withLeader(topic, partition, async (broker) => {
      const first = this.firstFetch.get(broker);
      if (first) await first;
      const fetched = broker.fetch({
        replicaId: -1,
        isolationLevel: READ_COMMITTED,
        maxWaitTime: 100,
        minBytes: 1,
        maxBytes,
        topics: [{ topic, partitions: [{ partition, fetchOffset: String(offset), maxBytes }] }],
      });
      if (!first) this.firstFetch.set(broker, fetched.then(() => undefined, () => void this.firstFetch.delete(broker)));
      const { responses } = await fetched;
      return responses[0]!.partitions[0]!;
    });
  }

  /** Runs a request against the partition leader, refreshing metadata once if leadership moved. */
  private async withLeader<T>(topic: string, partition: number, request: (broker: InternalBroker) => Promise<T>): Promise<T> {
    const cluster = await this.connect();
    for (let attempt = 0; ; attempt++) {
      // Closed under a read in flight: a retry would reconnect a broker of the closed cluster, and leak it.
      if (this.closed) throw new LogbookError('LOG_CLOSED', 'the Kafka log was closed');
      try {
        await cluster.addTargetTopic(topic);
        const leaders = cluster.findLeaderForPartitions(topic, [partition]);
        const nodeId = Object.keys(leaders)[0];
        if (nodeId === undefined) throw new LogbookError('NO_LEADER', `${topic}[${partition}] has no leader`, { retriable: true });
        const broker = await cluster.findBroker({ nodeId });
        if (this.closed) throw new LogbookError('LOG_CLOSED', 'the Kafka log was closed');
        return await request(broker);
      } catch (error) {
        if (attempt >= 5 || this.closed) throw this.closed ? new LogbookError('LOG_CLOSED', 'the Kafka log was closed') : logError(`reading ${topic}[${partition}]`, error);
        await cluster.refreshMetadata().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    }
  }

  private connect(): Promise<InternalCluster> {
    if (this.closed) return Promise.reject(new LogbookError('LOG_CLOSED', 'the Kafka log was closed'));
    this.connecting ??= (async () => {
      const symbol = Object.getOwnPropertySymbols(this.kafka).find((s) => s.description === 'private:Kafka:createCluster');
      if (!symbol) throw new LogbookError('KAFKAJS_INTERNALS', 'this kafkajs version does not expose the cluster factory the partition reader needs');
      const create = (this.kafka as unknown as Record<symbol, ClusterFactory>)[symbol]!;
      const cluster = create({ allowAutoTopicCreation: false, isolationLevel: READ_COMMITTED });
      await cluster.connect();
      this.cluster = cluster;
      return cluster;
    })();
    return this.connecting;
  }
}

/** The offset after everything a fetch returned, control batches and compacted-away tails included. */
function nextPosition(messages: readonly RawMessage[], position: number): number {
  let next = position;
  for (const m of messages) {
    next = Math.max(next, Number(m.offset) + 1);
    if (m.batchContext) next = Math.max(next, Number(m.batchContext.firstOffset) + m.batchContext.lastOffsetDelta + 1);
  }
  return next;
}
