import { LogbookError, RetriableLogError, TopicMismatchError } from './errors.js';
import type { TopicCatalog } from './catalog.js';
import type { TopicAdmin, TopicDescription } from './log/log.js';

/** Options of {@link ensureTopics}. */
export interface EnsureTopicsOptions {
  /** How long to wait for every topic to exist with a leader for each partition; default 60 s. */
  readonly timeoutMs?: number;
  /** Receives a line saying what is still missing, every `progressEveryMs` while it waits. */
  readonly onProgress?: (line: string) => void;
  /** Default 5 s. */
  readonly progressEveryMs?: number;
  /** Pause between checks; default 250 ms. */
  readonly pollMs?: number;
}

/**
 * Creates the catalog's fixed topics, verifies the existing ones, and waits until every one is
 * visible with a leader for each partition — on a fresh cluster a topic just created is not yet
 * known to every node, and its partitions have no leader for a moment, so the first write or
 * read would fail. Retriable errors are retried until the deadline; a wrong shard count is not.
 *
 * The shard count is a one-way door (like Temporal's numHistoryShards): if the cluster's
 * co-partitioned topics have another partition count, the engine refuses to start instead of
 * routing workflows to the wrong shards.
 *
 * @throws TopicMismatchError when existing topics have another shard count
 * @throws RetriableLogError when the topics are not ready by the deadline, naming what is missing
 */
export async function ensureTopics(admin: TopicAdmin, catalog: TopicCatalog, options: EnsureTopicsOptions = {}): Promise<void> {
  const coPartitioned = [catalog.commands, catalog.commandsInternal, catalog.history, catalog.state, catalog.visibility];
  const names = catalog.fixedTopics.map((t) => t.name);
  await untilReady(`the topics of prefix '${catalog.prefix}'`, options, async () => {
    assertShardCount(await admin.describeTopics(coPartitioned), catalog.shards);
    await admin.createTopics(catalog.fixedTopics);
    return missingOf(await admin.describeTopics(names), names);
  });
}

/** Creates the task topics of one namespace and task queue if they do not exist yet. */
export async function ensureTaskTopics(admin: TopicAdmin, catalog: TopicCatalog, namespace: string, taskQueue: string): Promise<void> {
  await admin.createTopics(catalog.taskTopicSpecs(namespace, taskQueue));
}

function assertShardCount(existing: ReadonlyMap<string, TopicDescription>, shards: number): void {
  for (const [name, description] of existing) {
    if (description.partitions !== shards) {
      throw new TopicMismatchError(
        `topic ${name} has ${description.partitions} partitions but the engine is configured with ${shards} shards. ` +
          `The shard count is fixed when the topics are created: set the shard count to ${description.partitions}, ` +
          `or use a new topic prefix for a fresh deployment.`,
      );
    }
  }
}

/** What keeps the topics from being usable, or undefined when nothing does. */
function missingOf(found: ReadonlyMap<string, TopicDescription>, names: readonly string[]): string | undefined {
  const missing = names.flatMap((name) => {
    const topic = found.get(name);
    if (!topic) return [`${name} (not visible yet)`];
    if (topic.partitionsWithoutLeader > 0) return [`${name} (${topic.partitionsWithoutLeader} of ${topic.partitions} partitions without a leader)`];
    return [];
  });
  return missing.length > 0 ? missing.join(', ') : undefined;
}

/**
 * Runs `check` until it reports nothing missing, retrying retriable errors, with a progress line
 * now and then (from a timer, so a check that itself waits long still shows progress).
 */
async function untilReady(what: string, options: EnsureTopicsOptions, check: () => Promise<string | undefined>): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  let waitingFor = 'the first answer of the cluster';
  let lastError: unknown;
  const progress = options.onProgress
    ? setInterval(() => options.onProgress!(`waiting for ${what}: ${waitingFor}… (${Math.round((Date.now() - started) / 1000)} s)`), options.progressEveryMs ?? 5_000)
    : undefined;
  try {
    for (;;) {
      try {
        const missing = await check();
        if (missing === undefined) return;
        waitingFor = missing;
      } catch (error) {
        if (!(error instanceof LogbookError) || !error.retriable) throw error;
        lastError = error;
        waitingFor = `retrying after: ${error.message}`;
      }
      if (Date.now() - started >= timeoutMs) {
        throw new RetriableLogError(`${what} are not ready after ${Math.round(timeoutMs / 1000)} s: ${waitingFor}`, lastError);
      }
      await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
    }
  } finally {
    clearInterval(progress);
  }
}
