// Test tooling only: reads what the broker itself says about topics, not what the engine asked for.
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';

/** KafkaJS's `ConfigResourceTypes.TOPIC` (not a named export of its ES module face). */
const TOPIC_RESOURCE = 2;

/** What a broker reports about one topic's replication. */
export interface TopicReplication {
  /** Replicas of the topic's partitions (every partition has this many). */
  readonly replicas: number;
  /** The topic's `min.insync.replicas` config. */
  readonly minInsyncReplicas: string | undefined;
}

/** Asks the cluster how each topic is replicated; throws if a topic's partitions disagree. */
export async function topicReplication(brokers: readonly string[], topics: readonly string[]): Promise<Map<string, TopicReplication>> {
  const admin = new Kafka({ clientId: 'logbook-test-replication', brokers: [...brokers], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    // The node asked may not have heard of a topic created a moment ago on another node.
    const metadata = await eventually(() => admin.fetchTopicMetadata({ topics: [...topics] }));
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: TOPIC_RESOURCE, name, configNames: ['min.insync.replicas'] })),
    });
    const result = new Map<string, TopicReplication>();
    for (const topic of metadata.topics) {
      const counts = new Set(topic.partitions.map((p) => p.replicas.length));
      if (counts.size !== 1) throw new Error(`${topic.name}: partitions have different replica counts ${[...counts].join(', ')}`);
      const config = configs.resources.find((r) => r.resourceName === topic.name)?.configEntries.find((e) => e.configName === 'min.insync.replicas');
      result.set(topic.name, { replicas: [...counts][0]!, minInsyncReplicas: config?.configValue });
    }
    return result;
  } finally {
    await admin.disconnect();
  }
}

async function eventually<T>(read: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
