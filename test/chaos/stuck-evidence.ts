// Test tooling: the worker groups' committed offsets, which the log interface reads only as a member.
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import { activityTaskCodec, commandCodec, shardPositionsCodec, SingleObjectSerde, workflowTaskCodec } from '../../topics/serde/index.js';
import { POSITIONS_KEY } from '../../processors/shard-runtime/store-layout.js';
import type { StuckRun } from './workflow-outcomes.js';

/**
 * Where each stuck run's last step went missing: for a run that stopped at WorkflowTaskScheduled or
 * ActivityTaskScheduled, whether the task reached its task topic, whether the workers' group has
 * committed past it, and which claims and results for it are on the command topic. A task that
 * was dispatched and committed past without any claim was skipped by the workers before anyone
 * answered it; a claim and a result on the command topic that the history lacks were skipped by the
 * shard; no task at all is a dispatch that went missing.
 */

/** What was found for one stuck run. */
export interface StuckEvidence extends StuckRun {
  readonly shard: number;
  /** The task record for the last scheduled event, if it is in its task topic. */
  readonly task: TaskRecord | null;
  /** The workers' committed offset of that partition (null: none), and whether it is past the task. */
  readonly groupCommitted: number | null;
  readonly committedPast: boolean | null;
  /** Commands on the command topic for the scheduled event: claims, completions, failures. */
  readonly commands: readonly TaskCommand[];
  /**
   * The shard's last committed input position on the command topic (its changelog's positions
   * record): past a command above that is not in the history means the input was skipped.
   */
  readonly shardCommandPosition: number | null;
  /** The run's mutable state as the owner describes it now (pending tasks, buffered events), or why it could not. */
  readonly state: unknown;
}

const serde = new SingleObjectSerde();
const LISTED = 50;

/** Collects the evidence for the first {@link LISTED} stuck runs of task queue `taskQueue` in `namespace`. */
export async function stuckEvidence(log: Log, catalog: TopicCatalog, brokers: readonly string[], gateway: string, stuck: readonly StuckRun[], namespace: string, taskQueue: string): Promise<StuckEvidence[]> {
  const runs = stuck.slice(0, LISTED);
  if (runs.length === 0) return [];
  const wanted = new Map(runs.map((r) => [`${r.runId}/${r.lastEventId}`, r]));
  const topics = catalog.taskTopics(namespace, taskQueue);
  const records = await taskRecords(log, catalog, namespace, taskQueue, new Set(wanted.keys()));
  const commands = await taskCommands(log, catalog, new Set(wanted.keys()));
  const committed = await groupOffsets(brokers, catalog.prefix, namespace, taskQueue, [topics.workflow, topics.activity]);
  const positions = await commandPositions(log, catalog, new Set(runs.map((r) => catalog.shardOf(namespace, r.workflowId))));
  const states = await Promise.all(runs.map((r) => describeRun(gateway, namespace, r.workflowId)));
  return runs.map((r, i) => {
    const key = `${r.runId}/${r.lastEventId}`;
    const task = records.get(key)?.at(-1) ?? null;
    const groupCommitted = task ? (committed.get(`${task.topic}/${task.partition}`) ?? null) : null;
    const shard = catalog.shardOf(namespace, r.workflowId);
    return {
      ...r, shard, task, groupCommitted, committedPast: task && groupCommitted !== null ? groupCommitted > task.offset : null, commands: commands.get(key) ?? [],
      shardCommandPosition: positions.get(shard) ?? null, state: states[i],
    };
  });
}

/** A task record on a task topic. */
export interface TaskRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly attempt: number;
}

/** Every workflow and activity task record of the queue for each wanted `runId/scheduledEventId`, in offset order per partition. */
export async function taskRecords(log: Log, catalog: TopicCatalog, namespace: string, taskQueue: string, wanted: ReadonlySet<string>): Promise<Map<string, TaskRecord[]>> {
  const found = new Map<string, TaskRecord[]>();
  const topics = catalog.taskTopics(namespace, taskQueue);
  const partitions = catalog.taskTopicSpecs(namespace, taskQueue)[0]!.partitions;
  const scan = async (topic: string, decode: (value: Buffer) => { runId: string; scheduledEventId: number; attempt: number }) => {
    for (let p = 0; p < partitions; p++) {
      await log.readPartition(topic, p, 0, (batch) => {
        for (const r of batch) {
          const task = r.value ? tryDecode(() => decode(r.value!)) : undefined;
          const key = task && `${task.runId}/${task.scheduledEventId}`;
          if (key && wanted.has(key)) found.set(key, [...(found.get(key) ?? []), { topic, partition: r.partition, offset: r.offset, attempt: task.attempt }]);
        }
      });
    }
  };
  await scan(topics.workflow, (v) => serde.decodeSync(workflowTaskCodec, v));
  await scan(topics.activity, (v) => serde.decodeSync(activityTaskCodec, v));
  return found;
}

/** A task command (claim, result) on the command topic. */
export interface TaskCommand {
  readonly type: string;
  readonly partition: number;
  readonly offset: number;
  readonly attempt: number;
  readonly identity: string;
}

/** The task commands on the command topic for each wanted `runId/scheduledEventId`. */
export async function taskCommands(log: Log, catalog: TopicCatalog, wanted: ReadonlySet<string>): Promise<Map<string, TaskCommand[]>> {
  const found = new Map<string, TaskCommand[]>();
  for (let p = 0; p < catalog.shards; p++) {
    await log.readPartition(catalog.commands, p, 0, (batch) => {
      for (const r of batch) {
        const command = r.value ? tryDecode(() => serde.decodeSync(commandCodec, r.value!)) : undefined;
        const body = command?.body as { type: string; scheduledEventId?: number; attempt?: number; identity?: string } | undefined;
        if (!command || !body || body.scheduledEventId === undefined) continue;
        const key = `${command.runId}/${body.scheduledEventId}`;
        if (!wanted.has(key)) continue;
        found.set(key, [...(found.get(key) ?? []), { type: body.type, partition: r.partition, offset: r.offset, attempt: body.attempt ?? 0, identity: body.identity ?? '' }]);
      }
    });
  }
  return found;
}

/** The committed offsets of the queue's workflow and activity worker groups, by `topic/partition`. */
async function groupOffsets(brokers: readonly string[], prefix: string, namespace: string, taskQueue: string, topics: readonly string[]): Promise<Map<string, number>> {
  const admin = new Kafka({ clientId: 'chaos-evidence', brokers: [...brokers], logLevel: logLevel.NOTHING }).admin();
  const out = new Map<string, number>();
  await admin.connect();
  try {
    for (const [groupId, topic] of [[`${prefix}-workflow-workers-${namespace}-${taskQueue}`, topics[0]!], [`${prefix}-activity-workers-${namespace}-${taskQueue}`, topics[1]!]] as const) {
      for (const t of await admin.fetchOffsets({ groupId, topics: [topic] })) {
        for (const p of t.partitions) if (Number(p.offset) >= 0) out.set(`${t.topic}/${p.partition}`, Number(p.offset));
      }
    }
  } finally {
    await admin.disconnect();
  }
  return out;
}

/** Each shard's last committed position on the command topic, from the `~positions` records of its changelog. */
async function commandPositions(log: Log, catalog: TopicCatalog, shards: ReadonlySet<number>): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const shard of shards) {
    await log.readPartition(catalog.state, shard, 0, (batch) => {
      for (const r of batch) {
        if (r.key?.toString('utf8') !== POSITIONS_KEY || !r.value) continue;
        const positions = tryDecode(() => serde.decodeSync(shardPositionsCodec, r.value!))?.positions ?? [];
        const commands = positions.find((p) => p.topic === catalog.commands && p.partition === shard);
        if (commands) out.set(shard, commands.offset);
      }
    });
  }
  return out;
}

/** What the run's owner says about it now: pending tasks and timers, buffered events. */
async function describeRun(gateway: string, namespace: string, workflowId: string): Promise<unknown> {
  try {
    const response = await fetch(`${gateway}/api/v1/namespaces/${namespace}/workflows/${encodeURIComponent(workflowId)}`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return `HTTP ${response.status} ${(await response.text()).slice(0, 300)}`;
    const state = (await response.json()) as Record<string, unknown>;
    const pick = ['pendingWorkflowTask', 'pendingActivities', 'pendingTimers', 'bufferedEvents'];
    return { lastEventId: (state.executionInfo as { lastEventId?: unknown } | undefined)?.lastEventId, ...Object.fromEntries(pick.map((k) => [k, state[k]])) };
  } catch (error) {
    return `describe failed: ${(error as Error).message}`;
  }
}

function tryDecode<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}
