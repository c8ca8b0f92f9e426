import type { Message } from 'kafkajs';
import type { OutgoingRecord } from '../log.js';
import { causeChain } from './kafka-errors.js';
import type { LeadershipView } from './producer-leadership.js';

/** Where KafkaJS says a partition's records of one send were appended. */
export interface AppendedBatch {
  readonly topicName: string;
  readonly partition: number;
  readonly baseOffset?: string;
}

/** The part of a KafkaJS transaction this module drives. */
export interface SendBatchTransaction {
  sendBatch(batch: { topicMessages: Array<{ topic: string; messages: Message[] }>; acks: -1 }): Promise<readonly AppendedBatch[] | void>;
}

/** One send that went through: what was sent and where the broker appended it. */
export interface CompletedSend {
  readonly topicMessages: ReadonlyArray<{ topic: string; messages: ReadonlyArray<{ partition?: number }> }>;
  readonly appended: readonly AppendedBatch[];
}

/** How often, and how soon, a send that provably wrote nothing is tried again. */
export interface UnwrittenRetry {
  readonly attempts: number;
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
}

/** The broker answers CONCURRENT_TRANSACTIONS for a few milliseconds after a commit, while it writes the markers. */
export const DEFAULT_UNWRITTEN_RETRY: UnwrittenRetry = { attempts: 12, firstDelayMs: 10, maxDelayMs: 1_000 };

/**
 * True when a failed `sendBatch` (with KafkaJS's own retries off) cannot have written a record:
 * KafkaJS throws `KafkaJSMetadataNotLoaded` while it groups the records by leader, before any
 * Produce request; and CONCURRENT_TRANSACTIONS comes only from AddPartitionsToTxn, which KafkaJS
 * sends before the Produce request of the same broker — so when the whole send went to one leader
 * (one AddPartitionsToTxn, then one Produce), nothing was produced. In a send to several leaders,
 * another broker's Produce may already be out, and a resend would duplicate it.
 */
export function wroteNothing(error: unknown, oneLeader: boolean): boolean {
  return causeChain(error).some((e) => e.name === 'KafkaJSMetadataNotLoaded' || (oneLeader && e.type === 'CONCURRENT_TRANSACTIONS'));
}

/** Called as a send is tried; the function it returns tells, once that try failed, whether it provably went to one leader. */
type OneLeaderCheck = () => () => boolean;

/**
 * The leading records that go to the partition of the first record: the run of records with its
 * topic and explicit partition, or the first record alone when it has none (its partition then
 * comes from its key). Taking a prefix keeps every partition's records in their order.
 */
export function leadingPartitionRun(records: readonly OutgoingRecord[]): readonly OutgoingRecord[] {
  const first = records[0];
  if (!first || first.partition === undefined) return records.slice(0, 1);
  let end = 1;
  while (end < records.length && records[end]!.topic === first.topic && records[end]!.partition === first.partition) end++;
  return records.slice(0, end);
}

/**
 * Sends records in an open transaction so that none can be written twice.
 *
 * KafkaJS 2.2.4 splits a send into one Produce request per partition leader and, when one fails
 * with a retriable error, sends again to every broker that has not answered yet — including one
 * whose request is still on its way. That request goes out a second time once the first returns,
 * under sequence numbers the first already advanced, so the broker appends its records again, in
 * the same transaction. (It also skips records whose partition moved to a broker that already
 * answered.) So KafkaJS's retries must be off for this producer, and only failures that provably
 * wrote nothing are tried again here. The CONCURRENT_TRANSACTIONS that follows a commit is such a
 * failure only for a send that went to one leader. When the producer's own metadata (`leadership`)
 * puts every record on one leader, the records go in one send, and a failed try is retried only if
 * KafkaJS grouped it under one leader (recorded as it groups). Otherwise the first records, all for
 * one partition, go alone; once they are in, the transaction is ongoing on the coordinator and the
 * rest go in one send. Any other failure leaves the outcome unknown, and the caller must re-fence.
 * Resolves with each send that went through and where its records were appended.
 */
export async function sendWithoutDuplicates(
  tx: SendBatchTransaction,
  records: readonly OutgoingRecord[],
  toMessages: (records: readonly OutgoingRecord[]) => Array<{ topic: string; messages: Message[] }>,
  leadership?: LeadershipView,
  retry: UnwrittenRetry = DEFAULT_UNWRITTEN_RETRY,
): Promise<CompletedSend[]> {
  if (records.length === 0) return [];
  const sends: CompletedSend[] = [];
  const sendPart = async (part: readonly OutgoingRecord[], oneLeader: OneLeaderCheck) => {
    const topicMessages = toMessages(part);
    const appended = await retryUnwritten(() => tx.sendBatch({ topicMessages, acks: -1 }), oneLeader, retry);
    sends.push({ topicMessages, appended: appended ?? [] });
  };
  if (leadership && leadership.leaderCount(records) === 1) {
    await sendPart(records, () => {
      const grouped = leadership.recordGrouping();
      return () => grouped().size === 1;
    });
    return sends;
  }
  const first = leadingPartitionRun(records);
  await sendPart(first, () => () => true);
  const rest = records.slice(first.length);
  if (rest.length > 0) await sendPart(rest, () => () => false);
  return sends;
}

async function retryUnwritten<T>(send: () => Promise<T>, oneLeader: OneLeaderCheck, retry: UnwrittenRetry): Promise<T> {
  let delayMs = retry.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    const wentToOneLeader = oneLeader();
    try {
      return await send();
    } catch (error) {
      if (attempt >= retry.attempts || !wroteNothing(error, wentToOneLeader())) throw error;
      await new Promise((r) => setTimeout(r, delayMs));
      delayMs = Math.min(delayMs * 2, retry.maxDelayMs);
    }
  }
}
