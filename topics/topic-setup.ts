import { TopicMismatchError } from './errors.js';
import type { TopicCatalog } from './catalog.js';
import type { TopicAdmin } from './log/log.js';

/**
 * Creates the catalog's fixed topics and verifies the existing ones. The shard count is a one-way
 * door (like Temporal's numHistoryShards): if the cluster's co-partitioned topics have another
 * partition count, the engine refuses to start instead of routing workflows to the wrong shards.
 */
export async function ensureTopics(admin: TopicAdmin, catalog: TopicCatalog): Promise<void> {
  const coPartitioned = [catalog.commands, catalog.commandsInternal, catalog.history, catalog.state, catalog.visibility];
  const before = await admin.describeTopics(coPartitioned);
  for (const [name, description] of before) {
    if (description.partitions !== catalog.shards) {
      throw new TopicMismatchError(
        `topic ${name} has ${description.partitions} partitions but the engine is configured with ${catalog.shards} shards. ` +
          `The shard count is fixed when the topics are created: set the shard count to ${description.partitions}, ` +
          `or use a new topic prefix for a fresh deployment.`,
      );
    }
  }
  await admin.createTopics(catalog.fixedTopics);
  const after = await admin.describeTopics(catalog.fixedTopics.map((t) => t.name));
  for (const spec of catalog.fixedTopics) {
    if (!after.has(spec.name)) throw new TopicMismatchError(`topic ${spec.name} could not be created`);
  }
}

/** Creates the task topics of one namespace and task queue if they do not exist yet. */
export async function ensureTaskTopics(admin: TopicAdmin, catalog: TopicCatalog, namespace: string, taskQueue: string): Promise<void> {
  await admin.createTopics(catalog.taskTopicSpecs(namespace, taskQueue));
}
