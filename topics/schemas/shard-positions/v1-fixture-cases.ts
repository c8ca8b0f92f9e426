/**
 * Golden ShardPositions v1 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import type { FixtureCase } from '../fixture-samples.js';
import type { ShardPositions } from './v1.js';

/** A shard's two inputs. */
export const shardPositionsCases: readonly FixtureCase<ShardPositions>[] = [
  { name: 'two-inputs', value: { positions: [
    { topic: 'logbook.commands', partition: 3, offset: 1_234_567 },
    { topic: 'logbook.commands.internal', partition: 3, offset: 0 },
  ] } },
];
