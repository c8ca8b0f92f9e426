/**
 * ShardPositions v1 — a value of `logbook.state` under the shard's own key: the next offsets of
 * the shard's input partitions, committed atomically with its outputs (DESIGN.md §3).
 * @module
 */
import { arrayOf, field, record } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';

/** The next offset to read from one input partition. */
export interface InputPosition {
  topic: string;
  partition: number;
  /** Next offset to consume (Kafka's committed-offset convention). */
  offset: number;
}

/** The input positions of one shard. */
export interface ShardPositions {
  positions: InputPosition[];
}

/** Avro schema of `logbook.ShardPositions`, version 1. Frozen. */
export const shardPositionsSchemaV1 = defineSchema(
  record(
    'logbook.ShardPositions',
    [
      field(
        'positions',
        arrayOf(
          record('logbook.InputPosition', [
            field('topic', 'string'),
            field('partition', 'int'),
            field('offset', 'long'),
          ]),
        ),
      ),
    ],
    'Next input offsets of a shard, written in the same transaction as its outputs.',
  ),
);
