import type { Admin } from 'kafkajs';
import { RetriableLogError } from '../../errors.js';
import type { TopicAdmin, TopicDescription } from '../log.js';
import { logError } from './kafka-errors.js';

/** Topic administration on KafkaJS's admin client. */
export function kafkaTopicAdmin(admin: () => Promise<Admin>): TopicAdmin {
  return {
    async createTopics(specs) {
      const client = await admin();
      const existing = new Set(await client.listTopics());
      const fresh = specs.filter((s) => !existing.has(s.name));
      if (fresh.length === 0) return;
      try {
        await client.createTopics({
          // KafkaJS's own wait asks one node, which may not know the topic yet on a multi-node
          // cluster; waitForLeaders below polls until every partition has a leader.
          waitForLeaders: false,
          topics: fresh.map((s) => ({
            topic: s.name,
            numPartitions: s.partitions,
            replicationFactor: s.replicationFactor,
            configEntries: Object.entries(s.config).map(([name, value]) => ({ name, value })),
          })),
        });
      } catch (error) {
        // Another node may have created the same topics concurrently, or the node listing topics
        // had not heard of one yet: a topic that exists is all we want.
        const after = alreadyExists(error) ? undefined : new Set(await client.listTopics());
        if (after && !fresh.every((s) => after.has(s.name))) throw logError('creating topics', error);
      }
      await waitForLeaders(client, fresh.map((s) => s.name));
    },
    async describeTopics(names) {
      const client = await admin();
      try {
        const existing = new Set(await client.listTopics());
        const wanted = names.filter((n) => existing.has(n));
        const result = new Map<string, TopicDescription>();
        if (wanted.length === 0) return result;
        // On a fresh multi-node cluster the node asked may not host a topic another node listed
        // a moment ago (UNKNOWN_TOPIC_OR_PARTITION): that error stays retriable.
        const { topics } = await client.fetchTopicMetadata({ topics: [...wanted] });
        for (const t of topics) {
          result.set(t.name, { name: t.name, partitions: t.partitions.length, partitionsWithoutLeader: t.partitions.filter((p) => p.leader < 0).length });
        }
        return result;
      } catch (error) {
        throw logError(`describing topics ${names.join(', ')}`, error);
      }
    },
    async brokerCount() {
      try {
        return (await (await admin()).describeCluster()).brokers.length;
      } catch (error) {
        throw logError('describing the cluster', error);
      }
    },
    async groupMembers(groupId) {
      try {
        const { groups } = await (await admin()).describeGroups([groupId]);
        return groups[0]?.members.length ?? 0;
      } catch (error) {
        throw logError('describing a consumer group', error);
      }
    },
    async groupOffsets(groupId, topic) {
      try {
        const [offsets] = await (await admin()).fetchOffsets({ groupId, topics: [topic] });
        return new Map((offsets?.partitions ?? []).map((p) => [p.partition, Math.max(0, Number(p.offset))]));
      } catch (error) {
        throw logError(`reading the committed offsets of ${groupId}`, error);
      }
    },
    async listTopics() {
      try {
        return await (await admin()).listTopics();
      } catch (error) {
        throw logError('listing topics', error);
      }
    },
    async deleteTopics(names) {
      const client = await admin();
      const existing = new Set(await client.listTopics());
      const doomed = names.filter((n) => existing.has(n));
      if (doomed.length > 0) await client.deleteTopics({ topics: [...doomed] });
    },
  };
}

const LEADER_WAIT_MS = 30_000;

/** True when every topic KafkaJS could not create already existed (it aggregates per-topic errors). */
function alreadyExists(error: unknown): boolean {
  const { type, errors } = (error ?? {}) as { type?: string; errors?: Array<{ type?: string }> };
  if (type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => e.type === 'TOPIC_ALREADY_EXISTS');
}

/** Polls metadata until every partition of the topics has a leader, so the first write succeeds. */
async function waitForLeaders(client: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + LEADER_WAIT_MS;
  for (;;) {
    try {
      const { topics: metadata } = await client.fetchTopicMetadata({ topics });
      const led = metadata.length === topics.length && metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      // A leader in the metadata may not serve its partition yet (NOT_LEADER_OR_FOLLOWER to the first
      // produce, which fails a whole shard transaction): ask every leader for its offsets first.
      if (led && (await Promise.all(topics.map((t) => client.fetchTopicOffsets(t)))).length === topics.length) return;
    } catch (error) {
      if (Date.now() > deadline) throw logError(`waiting for leaders of ${topics.join(', ')}`, error);
    }
    if (Date.now() > deadline) throw new RetriableLogError(`creating topics: no leader for some partitions of ${topics.join(', ')} after ${LEADER_WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
