import type { TopicCatalog } from '../../topics/catalog.js';
import type { LogRecord, OutgoingRecord } from '../../topics/log/log.js';
import { partitionForKey } from '../../topics/partitioner.js';
import { InputFailure, InputStep } from './input-steps.js';

/** Header naming where a forwarded record was first read. */
export const FORWARDED_FROM_HEADER = 'logbook.forwarded-from';

/** Where an input record goes: applied on this shard, or forwarded once to the shard its key names. */
export type Route = { readonly here: true } | { readonly here: false; readonly forward: OutgoingRecord };

/**
 * Routes one input record. A record keyed for another shard (a producer with another partitioner)
 * is never applied here: it is forwarded once to the right shard's internal topic, and refused if
 * it arrives misrouted again. A record without key or value is refused.
 * @throws InputFailure (step `route`) for a record that cannot be routed
 */
export function routeRecord(record: LogRecord, shard: number, catalog: TopicCatalog): Route {
  if (record.key === null || record.value === null) {
    throw new InputFailure(InputStep.route, 'MISSING_KEY_OR_VALUE', 'a command needs the key ns/workflowId and a value');
  }
  const target = partitionForKey(record.key, catalog.shards);
  if (target === shard) return { here: true };
  if (record.headers[FORWARDED_FROM_HEADER]) {
    throw new InputFailure(InputStep.route, 'MISROUTED', `keyed for shard ${target} but forwarded to shard ${shard}`);
  }
  return {
    here: false,
    forward: {
      topic: catalog.commandsInternal,
      partition: target,
      key: record.key,
      value: record.value,
      headers: { ...record.headers, [FORWARDED_FROM_HEADER]: `${record.topic}:${record.partition}:${record.offset}` },
    },
  };
}
