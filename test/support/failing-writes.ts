import type { Log, OutgoingRecord } from '../../topics/log/log.js';
import { RetriableLogError } from '../../topics/errors.js';

/**
 * Wraps a log so that sends of its idempotent producer fail — nothing is written — whenever
 * `fails(records)` says so (it may be async, to decode what is sent), as a broker outage or a dropped connection makes them fail. Everything
 * else (consumers, transactions, admin) passes through to the real log. Give the wrapped log to a
 * worker's connection to see what the worker does when its claims and answers cannot be written.
 */
export function withFailingWrites(log: Log, fails: (records: readonly OutgoingRecord[]) => boolean | Promise<boolean>): Log {
  return {
    kind: log.kind,
    admin: log.admin,
    maxRecordBytes: log.maxRecordBytes,
    producer: async () => {
      const producer = await log.producer();
      return {
        send: async (records) => {
          if (await fails(records)) throw new RetriableLogError(`injected fault: a send of ${records.length} record(s) failed`);
          return producer.send(records);
        },
        close: () => producer.close(),
      };
    },
    transactionalProducer: (id, options) => log.transactionalProducer(id, options),
    groupConsumer: (options) => log.groupConsumer(options),
    readPartition: (topic, partition, from, onRecords, options) => log.readPartition(topic, partition, from, onRecords, options),
    endOffset: (topic, partition) => log.endOffset(topic, partition),
    identity: () => log.identity(),
    close: () => log.close(),
  };
}
