import { CommitOutcomeUnknownError } from '../../topics/errors.js';
import type { Log, Transaction, TransactionalProducer } from '../../topics/log/log.js';

/** Which faults to inject. */
export interface FaultPlan {
  /** Decides, per commit, whether to report failure after the log has accepted the commit. */
  failCommitAfterAccepted?(transactionalId: string): boolean;
  /** An error to throw instead of committing (the transaction is aborted: nothing is written). */
  refuseCommit?(transactionalId: string): Error | undefined;
  /** Holds the initialisation of a transactional producer until the promise settles. */
  holdInitialisation?(transactionalId: string): Promise<void> | undefined;
}

/**
 * Wraps a log so that selected commits succeed on the log but throw as if the response was lost
 * (the situation KafkaJS produces when `commit()` throws after the broker committed), or are
 * refused with a chosen error, and so that a producer's initialisation can be held. Everything
 * else passes through to the real log.
 */
export function withInjectedFaults(log: Log, plan: FaultPlan): Log {
  const wrapTransaction = (id: string, tx: Transaction): Transaction => ({
    send: (records) => tx.send(records),
    commitGroupPositions: (groupId, partition, positions) => tx.commitGroupPositions(groupId, partition, positions),
    abort: () => tx.abort(),
    commit: async () => {
      const refused = plan.refuseCommit?.(id);
      if (refused) {
        await tx.abort();
        throw refused;
      }
      const receipt = await tx.commit();
      if (plan.failCommitAfterAccepted?.(id)) {
        throw new CommitOutcomeUnknownError(`injected fault: the commit of ${id} was accepted but reported as failed`);
      }
      return receipt;
    },
  });
  const wrapProducer = (producer: TransactionalProducer): TransactionalProducer => ({
    transactionalId: producer.transactionalId,
    begin: async () => wrapTransaction(producer.transactionalId, await producer.begin()),
    close: () => producer.close(),
  });
  return {
    kind: log.kind,
    admin: log.admin,
    maxRecordBytes: log.maxRecordBytes,
    producer: () => log.producer(),
    transactionalProducer: async (id, options) => {
      await plan.holdInitialisation?.(id);
      return wrapProducer(await log.transactionalProducer(id, options));
    },
    groupConsumer: (options) => log.groupConsumer(options),
    readPartition: (topic, partition, from, onRecords, options) => log.readPartition(topic, partition, from, onRecords, options),
    endOffset: (topic, partition) => log.endOffset(topic, partition),
    identity: () => log.identity(),
    close: () => log.close(),
  };
}
