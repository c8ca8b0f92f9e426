import type { Kafka, Message } from 'kafkajs';
import { CommitOutcomeUnknownError } from '../../errors.js';
import type { CommitReceipt, OutgoingRecord, Transaction, TransactionalProducer, WrittenPartition } from '../log.js';
import { assertRecordsFit } from '../record-size.js';
import { transactionError } from './kafka-errors.js';
import { producerWithCachedCoordinator } from './transaction-coordinator-cache.js';
import { sendWithoutDuplicates } from './transactional-send.js';

/** Settings of a transactional producer. */
export interface TransactionalSettings {
  readonly transactionTimeoutMs: number;
  readonly maxRecordBytes: number;
  readonly toMessages: (records: readonly OutgoingRecord[]) => Array<{ topic: string; messages: Message[] }>;
}

/**
 * Opens a KafkaJS transactional producer and fences older owners of the id at once (InitProducerId
 * runs on the first transaction; an empty abort triggers it without writing a marker).
 *
 * After any failure of send, commit or abort the producer is unusable — KafkaJS can be left
 * believing a transaction is still open — so further use fails with `CommitOutcomeUnknownError`
 * and the owner must open a new producer (which re-fences) once it has checked it still owns the shard.
 * That is also why the producer may keep its transaction coordinator once initialised: a moved
 * coordinator fails one transaction, and the next producer looks it up again.
 */
export async function openTransactionalProducer(
  kafka: Kafka,
  transactionalId: string,
  settings: TransactionalSettings,
): Promise<TransactionalProducer> {
  const { producer, leadership, keepCoordinator } = producerWithCachedCoordinator(kafka, {
    transactionalId,
    // Transactions are idempotent whatever this says; `idempotent: true` would only add a second,
    // unused producer id and forbid `retries: 0`.
    idempotent: false,
    maxInFlightRequests: 1,
    transactionTimeout: settings.transactionTimeoutMs,
    allowAutoTopicCreation: false,
    // KafkaJS's own retry of a send can write records twice (see transactional-send.ts), which
    // retries only what provably wrote nothing — with a short back-off, as CONCURRENT_TRANSACTIONS
    // after a commit clears within milliseconds. This setting covers sends only: InitProducerId keeps
    // the client's retry.
    retry: { retries: 0 },
  });
  try {
    await producer.connect();
    const fence = await producer.transaction();
    await fence.abort();
    keepCoordinator();
  } catch (error) {
    await producer.disconnect().catch(() => undefined);
    throw transactionError('initialising', transactionalId, error);
  }

  let broken: unknown;
  const guard = async <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    if (broken !== undefined) {
      throw new CommitOutcomeUnknownError(`${transactionalId} failed earlier and must be re-initialised before ${operation}`, broken);
    }
    try {
      return await work();
    } catch (error) {
      broken = error;
      throw transactionError(operation, transactionalId, error);
    }
  };

  return {
    transactionalId,
    begin: () =>
      guard('begin', async (): Promise<Transaction> => {
        const tx = await producer.transaction();
        const written = new Map<string, WrittenPartition>();
        return {
          send: async (records) => {
            assertRecordsFit(records, settings.maxRecordBytes);
            const sends = await guard('send', () => sendWithoutDuplicates(tx, records, settings.toMessages, leadership));
            for (const sent of sends) recordWritten(written, sent.topicMessages, sent.appended);
          },
          commitGroupPositions: (groupId, partition, positions) =>
            guard('committing group positions', () =>
              tx.sendOffsets({
                consumerGroupId: groupId,
                topics: Object.entries(positions).map(([topic, offset]) => ({ topic, partitions: [{ partition, offset: String(offset) }] })),
              }),
            ),
          commit: () => guard('commit', async (): Promise<CommitReceipt> => {
            await tx.commit();
            return { written: [...written.values()] };
          }),
          abort: () => guard('abort', () => tx.abort()),
        };
      }),
    close: () => producer.disconnect(),
  };
}

/**
 * Notes where a send's records landed: the broker reports each partition's base offset, and the
 * records of one partition are appended as one batch, so the next offset is base + their count.
 * Only records that named their partition are counted: the others' partitions KafkaJS chose.
 */
function recordWritten(
  written: Map<string, WrittenPartition>,
  sent: ReadonlyArray<{ topic: string; messages: ReadonlyArray<{ partition?: number }> }>,
  appended: ReadonlyArray<{ topicName: string; partition: number; baseOffset?: string }>,
): void {
  for (const result of appended) {
    if (result.baseOffset === undefined || Number(result.baseOffset) < 0) continue;
    const count = sent.find((t) => t.topic === result.topicName)?.messages.filter((m) => m.partition === result.partition).length ?? 0;
    if (count === 0) continue;
    const nextOffset = Number(result.baseOffset) + count;
    const id = `${result.topicName}/${result.partition}`;
    const before = written.get(id)?.nextOffset ?? 0;
    written.set(id, { topic: result.topicName, partition: result.partition, nextOffset: Math.max(before, nextOffset) });
  }
}
