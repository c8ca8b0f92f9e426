import type { OutgoingRecord } from '../log.js';

/** The part of KafkaJS's internal cluster (2.2.4) a producer groups its Produce requests with. */
export interface LeadershipCluster {
  findTopicPartitionMetadata(topic: string): ReadonlyArray<{ partitionId: number }>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
}

/**
 * Where a transactional producer's own metadata sends records: the view KafkaJS groups a send by,
 * one Produce request (and one AddPartitionsToTxn before it) per leader.
 */
export interface LeadershipView {
  /**
   * How many leaders the records go to under the producer's current metadata, or undefined when it
   * cannot tell (a topic or partition it has no metadata for, a partition without a leader). A
   * record without a partition counts every leader of its topic, as its key may pick any partition.
   */
  leaderCount(records: readonly OutgoingRecord[]): number | undefined;
  /**
   * Starts recording the leaders KafkaJS groups the producer's next send by (it asks the cluster
   * once per topic of a send; with its retries off, a send is grouped once). The function returned
   * gives the leaders recorded since. The metadata the grouping used may be refreshed by the time a
   * send fails — KafkaJS refreshes it before rethrowing a retriable error — so only the grouping
   * itself tells whether the send was one request.
   */
  recordGrouping(): () => ReadonlySet<string>;
}

/** The leadership view of a producer's cluster; it wraps the cluster's leader lookup to record groupings. */
export function leadershipView(cluster: LeadershipCluster): LeadershipView {
  const findLeaders = cluster.findLeaderForPartitions.bind(cluster);
  let recording: Set<string> | undefined;
  cluster.findLeaderForPartitions = (topic, partitions) => {
    const found = findLeaders(topic, partitions);
    if (recording) for (const leader of Object.keys(found)) recording.add(leader);
    return found;
  };
  return {
    leaderCount: (records) => {
      const partitionsByTopic = new Map<string, Set<number> | 'all'>();
      for (const { topic, partition } of records) {
        const named = partitionsByTopic.get(topic);
        if (named === 'all') continue;
        if (partition === undefined) partitionsByTopic.set(topic, 'all');
        else partitionsByTopic.set(topic, (named ?? new Set<number>()).add(partition));
      }
      const leaders = new Set<string>();
      try {
        for (const [topic, named] of partitionsByTopic) {
          const known = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
          const partitions = named === 'all' ? known : [...named];
          if (partitions.length === 0 || partitions.some((p) => !known.includes(p))) return undefined;
          for (const leader of Object.keys(findLeaders(topic, partitions))) leaders.add(leader);
        }
      } catch {
        return undefined; // no metadata yet, or a partition without a leader: KafkaJS decides later
      }
      return leaders.size;
    },
    recordGrouping: () => {
      const leaders = new Set<string>();
      recording = leaders;
      return () => leaders;
    },
  };
}
