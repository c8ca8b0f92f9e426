import { CommitOutcomeUnknownError } from '../../topics/errors.js';
import type { Log, OutgoingRecord } from '../../topics/log/log.js';

/** How a transaction ended in {@link commitLikeAShard}. */
export interface CommitAttempts {
  /** Outcome of each attempt, in order: `committed`, or the error that ended it. */
  readonly attempts: Array<'committed' | CommitOutcomeUnknownError>;
}

/**
 * Writes `records` in one transaction the way a shard does: when a send or commit fails with an
 * unknown outcome, the producer is closed and a new one opened for the same transactional id —
 * which fences the old one and aborts whatever it left open — and the records are written again in
 * a fresh transaction. Only send failures are injected by the tests using this, so a resend after
 * re-fencing is what a restored shard would do too. Any other error fails the caller.
 */
export async function commitLikeAShard(log: Log, transactionalId: string, records: readonly OutgoingRecord[], maxAttempts = 3): Promise<CommitAttempts> {
  const attempts: CommitAttempts['attempts'] = [];
  while (attempts.length < maxAttempts) {
    const producer = await log.transactionalProducer(transactionalId);
    try {
      const tx = await producer.begin();
      await tx.send(records);
      await tx.commit();
      attempts.push('committed');
      return { attempts };
    } catch (error) {
      if (!(error instanceof CommitOutcomeUnknownError)) throw error;
      attempts.push(error);
    } finally {
      await producer.close();
    }
  }
  throw new Error(`no commit after ${maxAttempts} attempts: ${attempts.map(String).join('; ')}`);
}

/**
 * How many times each key occurs in the committed (read_committed) records of the partitions, read
 * once every key of `expected` is there: the broker writes commit markers after EndTxn answers, so
 * a partition's records become visible a moment after the commit returned (all at once, so a
 * duplicate shows up together with its original).
 */
export async function committedKeyCounts(log: Log, topic: string, partitions: readonly number[], expected: readonly string[]): Promise<Record<string, number>> {
  const read = async () => {
    const counts: Record<string, number> = {};
    for (const partition of partitions) {
      await log.readPartition(topic, partition, 0, (chunk) => {
        for (const record of chunk) {
          const key = record.key?.toString() ?? '(null)';
          counts[key] = (counts[key] ?? 0) + 1;
        }
      });
    }
    return counts;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const counts = await read();
    if (expected.every((key) => counts[key] !== undefined) || Date.now() > deadline) return counts;
    await new Promise((r) => setTimeout(r, 100));
  }
}
