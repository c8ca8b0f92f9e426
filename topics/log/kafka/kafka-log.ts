import { defaultClientId } from '../client-id.js';
import type { Admin, ISocketFactory, Message, Producer as KafkaProducer } from 'kafkajs';
import { Kafka, logLevel as KafkaLogLevel } from './kafkajs.js';
import { LogbookError } from '../../errors.js';
import type {
  GroupConsumer,
  GroupConsumerOptions,
  Log,
  LogIdentity,
  LogRecord,
  OutgoingRecord,
  Producer,
  ReadOptions,
  ReadResult,
  RecordPosition,
  TopicAdmin,
  TransactionalProducer,
} from '../log.js';
import { assertRecordsFit, toBuffer } from '../record-size.js';
import { CoalescingSender } from './coalescing-sender.js';
import { breaksIdempotentProducer, logError } from './kafka-errors.js';
import { KafkaGroupConsumer } from './kafka-group-consumer.js';
import { kafkaJsSecurity } from './kafkajs-security.js';
import type { KafkaSecurity } from '../kafka-security.js';
import { kafkaTopicAdmin } from './kafka-topic-admin.js';
import { openTransactionalProducer } from './kafka-transactions.js';
import { PartitionReader } from './partition-reader.js';

/** How KafkaJS opens its broker connections (KafkaJS's `socketFactory`). */
export type KafkaSocketFactory = ISocketFactory;

/**
 * Fault injection, for tests only: a socket factory that can tamper with what the brokers answer,
 * and a shorter request timeout so a withheld answer times out within a test.
 */
export interface KafkaFaultInjection {
  readonly socketFactory?: KafkaSocketFactory;
  readonly requestTimeoutMs?: number;
}

/** Options of the Kafka log. */
export interface KafkaLogOptions {
  readonly brokers: readonly string[];
  /** The client id the brokers see; default `logbook-client-<host>-<pid>` (see `defaultClientId`). */
  readonly clientId?: string;
  readonly maxRecordBytes: number;
  /** SASL and TLS; absent, plaintext without authentication. */
  readonly security?: KafkaSecurity;
  /** Per-partition fetch size; must exceed the largest record. */
  readonly maxBytesPerPartition?: number;
  /** Long-poll wait of group fetches: lower means lower latency and more requests. */
  readonly maxWaitTimeMs?: number;
  /** KafkaJS's own logging; default errors only. */
  readonly verbose?: boolean;
  /** Tests only: see {@link KafkaFaultInjection}. */
  readonly faults?: KafkaFaultInjection;
}

/**
 * The Kafka implementation of the log interface, on KafkaJS 2.2.4 (the only module that imports
 * kafkajs, together with its siblings in this folder).
 */
export class KafkaLog implements Log {
  readonly kind = 'kafka' as const;
  readonly admin: TopicAdmin;
  readonly maxRecordBytes: number;
  private readonly kafka: Kafka;
  private readonly reader: PartitionReader;
  private readonly maxBytesPerPartition: number;
  private sharedProducer: Promise<KafkaProducer> | undefined;
  private sender: CoalescingSender | undefined;
  private sharedAdmin: Promise<Admin> | undefined;
  private readonly closeables = new Set<{ close(): Promise<void> }>();
  private readonly consumers = new Set<GroupConsumer>();
  private closed = false;

  constructor(private readonly options: KafkaLogOptions) {
    this.maxRecordBytes = options.maxRecordBytes;
    this.maxBytesPerPartition = options.maxBytesPerPartition ?? Math.max(4 * 1024 * 1024, options.maxRecordBytes * 2);
    this.kafka = new Kafka({
      clientId: options.clientId ?? defaultClientId('client'),
      brokers: [...options.brokers],
      ...kafkaJsSecurity(options.security),
      logLevel: options.verbose ? KafkaLogLevel.INFO : KafkaLogLevel.NOTHING,
      retry: { initialRetryTime: 100, retries: 8 },
      // A 2 MB record must be acknowledged well within the request timeout on a busy broker.
      requestTimeout: options.faults?.requestTimeoutMs ?? 30_000,
      ...(options.faults?.socketFactory ? { socketFactory: options.faults.socketFactory } : {}),
    });
    this.reader = new PartitionReader(this.kafka, this.maxBytesPerPartition);
    this.admin = kafkaTopicAdmin(() => this.adminClient());
  }

  async producer(): Promise<Producer> {
    await this.idempotentProducer();
    this.sender ??= new CoalescingSender((records) => this.send(records));
    const sender = this.sender;
    return {
      send: async (records) => {
        // Refuse an oversized record here, so it cannot fail the other callers it would share a request with.
        assertRecordsFit(records, this.maxRecordBytes);
        return sender.send(records);
      },
      close: async () => undefined,
    };
  }

  async transactionalProducer(transactionalId: string, options: { transactionTimeoutMs?: number } = {}): Promise<TransactionalProducer> {
    this.assertOpen();
    const producer = await openTransactionalProducer(this.kafka, transactionalId, {
      transactionTimeoutMs: options.transactionTimeoutMs ?? 10_000,
      maxRecordBytes: this.maxRecordBytes,
      toMessages: (records) => toTopicMessages(records),
    });
    const closeable = { close: () => producer.close() };
    this.closeables.add(closeable);
    return { ...producer, close: async () => { this.closeables.delete(closeable); await producer.close(); } };
  }

  groupConsumer(options: GroupConsumerOptions): GroupConsumer {
    this.assertOpen();
    const consumer = new KafkaGroupConsumer(this.kafka, () => this.adminClient(), options, {
      maxBytesPerPartition: this.maxBytesPerPartition,
      maxWaitTimeMs: this.options.maxWaitTimeMs ?? 100,
    });
    this.consumers.add(consumer);
    return consumer;
  }

  readPartition(
    topic: string,
    partition: number,
    fromOffset: number,
    onRecords: (records: readonly LogRecord[]) => Promise<void> | void,
    options?: ReadOptions,
  ): Promise<ReadResult> {
    return this.reader.read(topic, partition, fromOffset, onRecords, options);
  }

  endOffset(topic: string, partition: number): Promise<number> {
    return this.reader.endOffset(topic, partition);
  }

  async identity(): Promise<LogIdentity> {
    try {
      const { clusterId } = await (await this.adminClient()).describeCluster();
      return { kind: 'kafka', clusterId };
    } catch (error) {
      throw logError('describing the cluster', error);
    }
  }

  async close(): Promise<void> {
    // From here on no client may be created: a late call would open a connection nobody closes.
    this.closed = true;
    for (const consumer of this.consumers) await consumer.stop().catch(() => undefined);
    for (const closeable of this.closeables) await closeable.close().catch(() => undefined);
    await this.reader.close().catch(() => undefined);
    if (this.sharedProducer) await (await this.sharedProducer).disconnect().catch(() => undefined);
    if (this.sharedAdmin) await (await this.sharedAdmin).disconnect().catch(() => undefined);
  }

  private assertOpen(): void {
    if (this.closed) throw new LogbookError('LOG_CLOSED', 'the Kafka log was closed');
  }

  private async send(records: readonly OutgoingRecord[]): Promise<RecordPosition[]> {
    assertRecordsFit(records, this.maxRecordBytes);
    const shared = this.idempotentProducer();
    try {
      const results = await (await shared).sendBatch({ topicMessages: toTopicMessages(records), acks: -1 });
      // KafkaJS reports one entry per partition written, not per record.
      return results.map((r) => ({ topic: r.topicName, partition: r.partition }));
    } catch (error) {
      if (breaksIdempotentProducer(error)) this.replaceIdempotentProducer(shared);
      throw logError('producing records', error);
    }
  }

  /**
   * Drops a shared producer whose sequence numbers the broker no longer accepts (after a broker
   * outage KafkaJS kept failing every send with OUT_OF_ORDER_SEQUENCE_NUMBER, for good): the next
   * send opens a new one, with a new producer id.
   */
  private replaceIdempotentProducer(broken: Promise<KafkaProducer>): void {
    if (this.sharedProducer !== broken) return;
    this.sharedProducer = undefined;
    void broken.then((p) => p.disconnect()).catch(() => undefined);
  }

  private idempotentProducer(): Promise<KafkaProducer> {
    this.assertOpen();
    this.sharedProducer ??= (async () => {
      // One in-flight request per producer: KafkaJS otherwise risks OUT_OF_ORDER_SEQUENCE_NUMBER.
      const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await producer.connect();
      return producer;
    })();
    return this.sharedProducer;
  }

  private adminClient(): Promise<Admin> {
    this.assertOpen();
    this.sharedAdmin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })();
    return this.sharedAdmin;
  }
}

/** Groups records by topic in KafkaJS's shape, keeping their order. */
export function toTopicMessages(records: readonly OutgoingRecord[]): Array<{ topic: string; messages: Message[] }> {
  const byTopic = new Map<string, Message[]>();
  for (const record of records) {
    if (!record.topic) throw new LogbookError('INVALID_RECORD', 'a record has no topic');
    const messages = byTopic.get(record.topic) ?? [];
    byTopic.set(record.topic, messages);
    const message: Message = {
      key: record.key === null ? null : toBuffer(record.key),
      value: record.value,
      headers: record.headers ? Object.fromEntries(Object.entries(record.headers).map(([k, v]) => [k, toBuffer(v)])) : {},
    };
    if (record.partition !== undefined) message.partition = record.partition;
    if (record.timestamp !== undefined) message.timestamp = String(record.timestamp);
    messages.push(message);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
