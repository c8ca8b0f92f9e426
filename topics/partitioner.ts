/**
 * Java-compatible murmur2 partitioning: the same function as Kafka's Java client default
 * partitioner (and KafkaJS's default), so any producer that keys a record `ns/workflowId` reaches
 * the shard the engine computes. librdkafka clients must set `partitioner=murmur2_random`.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's `Utils.murmur2`: a signed 32-bit hash of the bytes. */
export function murmur2(data: Buffer): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const whole = length - (length % 4);
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // The tail bytes fall through exactly as in the Java switch statement.
  const rest = length % 4;
  if (rest === 3) h ^= (data[whole + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[whole + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[whole]! & 0xff;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition Kafka's default partitioner picks for a non-null key. */
export function partitionForKey(key: Buffer | string, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount <= 0) {
    throw new RangeError(`partition count must be a positive integer, got ${partitionCount}`);
  }
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  return (murmur2(bytes) & 0x7fffffff) % partitionCount;
}
