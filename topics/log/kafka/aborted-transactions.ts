/**
 * Which fetched records belong to aborted transactions, for read_committed reads.
 *
 * A Fetch response lists the aborted transactions that overlap it (producer id, first offset);
 * a record is aborted when it is transactional and its producer's aborted transaction began at or
 * before it and has not reached its abort marker yet. KafkaJS 2.2.4's filter
 * (`kafkajs/src/consumer/filterAbortedMessages.js`) registers at most one aborted transaction per
 * record and takes the list in the broker's order (by abort marker, not by first offset). When a
 * fetch starts inside two overlapping aborted transactions — several shards' producers aborted
 * together by a broker failure, and a consumer that resumes mid-way — a record of the second one is
 * handed to the consumer as if committed: a chaos run saw a worker run an activity task from an
 * aborted transaction beside the committed copy. This is the Java consumer's algorithm
 * (`CompletedFetch`): every aborted transaction that began at or before the record counts.
 * @module
 */

/** A record as KafkaJS decodes it, with what the filter needs. */
export interface FetchedMessage {
  readonly offset: string;
  readonly key?: Buffer | null;
  readonly isControlRecord?: boolean;
  readonly batchContext?: { readonly producerId?: string; readonly inTransaction?: boolean };
}

/** An aborted transaction as a Fetch response lists it. */
export interface AbortedTransaction {
  readonly producerId: string;
  readonly firstOffset: string;
}

// A control record's key is version (int16) and type (int16); type 0 is ABORT, 1 is COMMIT.
const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

function isAbortMarker(message: FetchedMessage): boolean {
  return message.key != null && Buffer.from(message.key).equals(ABORT_MARKER_KEY);
}

/**
 * The records of a fetch (in offset order) that are not part of an aborted transaction. Control
 * records are kept (callers drop them); abort markers end their producer's aborted transaction.
 */
export function withoutAbortedRecords<M extends FetchedMessage>(messages: readonly M[], abortedTransactions: readonly AbortedTransaction[] | undefined): M[] {
  if (!abortedTransactions || abortedTransactions.length === 0) return [...messages];
  const pending = [...abortedTransactions].sort((a, b) => compareOffsets(a.firstOffset, b.firstOffset));
  const abortedProducers = new Set<string>();
  return messages.filter((message) => {
    const offset = BigInt(message.offset);
    while (pending.length > 0 && BigInt(pending[0]!.firstOffset) <= offset) abortedProducers.add(String(pending.shift()!.producerId));
    const producerId = String(message.batchContext?.producerId);
    if (isAbortMarker(message)) {
      abortedProducers.delete(producerId);
      return true;
    }
    return !(message.batchContext?.inTransaction && abortedProducers.has(producerId));
  });
}

function compareOffsets(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
