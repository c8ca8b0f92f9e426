import type { Kafka, Producer, ProducerConfig } from 'kafkajs';
import { LogbookError } from '../../errors.js';
import { leadershipView, type LeadershipCluster, type LeadershipView } from './producer-leadership.js';

/** KafkaJS's coordinator type of transactional ids (protocol/coordinatorTypes.js). */
const TRANSACTION_COORDINATOR = 1;

interface CoordinatorLookup {
  groupId: string;
  coordinatorType?: number;
}

/** The part of KafkaJS's internal cluster this module replaces, and the part it reads. */
interface LookupCluster extends LeadershipCluster {
  findGroupCoordinatorMetadata(lookup: CoordinatorLookup): Promise<unknown>;
}

type ClusterFactory = (options: object) => LookupCluster;

/** A producer, the switch that makes it keep its transaction coordinator, and where its metadata sends records. */
export interface CoordinatorCachingProducer {
  readonly producer: Producer;
  /** The producer's own metadata, which it groups each send's Produce requests by (see transactional-send.ts). */
  readonly leadership: LeadershipView;
  /**
   * From now on the transaction coordinator is looked up once more and then kept. Call it once
   * the producer is initialised: InitProducerId retries on coordinator errors, and must look up
   * again when it does.
   */
  keepCoordinator(): void;
}

/**
 * Creates a KafkaJS producer that can keep its transaction coordinator.
 *
 * KafkaJS 2.2.4 sends FindCoordinator before every AddPartitionsToTxn and every EndTxn, so a
 * transaction cost five round trips instead of three. A transactional producer here is used until
 * its first failure and then discarded (see kafka-transactions.ts), so a coordinator that moved
 * (a broker restart, a `__transaction_state` leader change) costs one failed transaction — after
 * KafkaJS's retries of AddPartitionsToTxn against the old node, a few seconds — and the shard's
 * re-fence with a new producer, which looks it up afresh. The broker connection itself is still
 * resolved on every call, so a dropped connection reconnects as before.
 * Only the lookup of transaction coordinators is cached; consumer group lookups are untouched.
 */
export function producerWithCachedCoordinator(kafka: Kafka, config: ProducerConfig): CoordinatorCachingProducer {
  const owner = kafka as unknown as Record<symbol, ClusterFactory>;
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  if (!symbol || typeof owner[symbol] !== 'function') {
    throw new LogbookError('KAFKAJS_INTERNALS', 'this kafkajs version does not expose the cluster factory the transactional producer needs');
  }
  const create = owner[symbol];
  // kafka.producer() creates its cluster synchronously through this factory; it is swapped for
  // the duration of that one call only.
  let keeping = false;
  let cluster: LookupCluster | undefined;
  owner[symbol] = (options) => (cluster = cacheTransactionCoordinator(create.call(kafka, options), () => keeping));
  try {
    const producer = kafka.producer(config);
    if (!cluster) throw new LogbookError('KAFKAJS_INTERNALS', 'this kafkajs version did not create the producer\'s cluster through its factory');
    return { producer, leadership: leadershipView(cluster), keepCoordinator: () => void (keeping = true) };
  } finally {
    owner[symbol] = create;
  }
}

function cacheTransactionCoordinator(cluster: LookupCluster, keeping: () => boolean): LookupCluster {
  const lookup = cluster.findGroupCoordinatorMetadata.bind(cluster);
  const cached = new Map<string, Promise<unknown>>();
  cluster.findGroupCoordinatorMetadata = (request) => {
    if (request.coordinatorType !== TRANSACTION_COORDINATOR || !keeping()) return lookup(request);
    let found = cached.get(request.groupId);
    if (!found) {
      found = lookup(request);
      cached.set(request.groupId, found);
      // A failed lookup is not remembered.
      found.catch(() => cached.delete(request.groupId));
    }
    return found;
  };
  return cluster;
}
