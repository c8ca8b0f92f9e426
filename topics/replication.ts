import type { TopicAdmin } from './log/log.js';

/** How every topic the engine creates is replicated. */
export interface ReplicationSettings {
  /** Copies of each partition. */
  readonly replicationFactor: number;
  /** Topic `min.insync.replicas`: copies that must have a write before it is acknowledged (acks=all). */
  readonly minInsyncReplicas: number;
}

/** What the operator chose (flags, environment); what is absent follows the cluster's size. */
export interface ReplicationChoice {
  readonly replicationFactor?: number | undefined;
  readonly minInsyncReplicas?: number | undefined;
}

/** Copies kept by default on a cluster of three or more brokers, and how many must hold a write. */
const PRODUCTION = { replicationFactor: 3, minInsyncReplicas: 2 } as const;

/**
 * The replication of the engine's topics on a cluster of `brokers` brokers. Defaults: replication
 * factor 3 and `min.insync.replicas` 2 on three brokers or more — one broker can fail without
 * losing an acknowledged write or stopping writes — and one copy per broker below that (so 1 and 1
 * on a single development broker; 2 and 1 on two brokers).
 *
 * @throws RangeError naming the rule (see {@link replicationWith}), or when the replication factor
 *   exceeds the brokers
 */
export function replicationFor(brokers: number, chosen: ReplicationChoice = {}): ReplicationSettings {
  const settings = replicationWith(chosen.replicationFactor ?? Math.min(PRODUCTION.replicationFactor, Math.max(brokers, 1)), chosen.minInsyncReplicas);
  if (settings.replicationFactor > brokers) {
    throw new RangeError(`replication factor ${settings.replicationFactor} needs at least ${settings.replicationFactor} brokers, and the cluster has ${brokers}`);
  }
  return settings;
}

/**
 * A replication factor with its `min.insync.replicas`, by default 2 from a factor of 3, else 1.
 *
 * @throws RangeError naming the rule when a value is not a positive integer, or when
 *   `min.insync.replicas` exceeds the replication factor (no write could ever be acknowledged)
 */
export function replicationWith(replicationFactor: number, minInsyncReplicas?: number): ReplicationSettings {
  const positive = (name: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
    return value;
  };
  positive('the replication factor', replicationFactor);
  const minIsr = positive('min.insync.replicas', minInsyncReplicas ?? (replicationFactor >= PRODUCTION.replicationFactor ? PRODUCTION.minInsyncReplicas : 1));
  if (minIsr > replicationFactor) {
    throw new RangeError(`min.insync.replicas ${minIsr} exceeds the replication factor ${replicationFactor}: no write could ever be acknowledged`);
  }
  return { replicationFactor, minInsyncReplicas: minIsr };
}

/** {@link replicationFor} on the cluster the admin talks to (the embedded log counts as one broker). */
export async function resolveReplication(admin: TopicAdmin, chosen: ReplicationChoice = {}): Promise<ReplicationSettings & { readonly brokers: number }> {
  const brokers = await admin.brokerCount();
  return { ...replicationFor(brokers, chosen), brokers };
}
