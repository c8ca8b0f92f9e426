import type { TopicSpec } from './log/log.js';
import { partitionForKey } from './partitioner.js';
import { replicationWith, type ReplicationSettings } from './replication.js';
import { maxPayloadBytes } from './serde/record-size.js';
import { namespaceProblem, taskQueueProblem, taskQueueTopicPart, topicPrefixProblem } from './validation/name-rules.js';

/**
 * The topic catalog (DESIGN.md §2): names, partition counts, keys and configs of every topic the
 * engine writes. Changing a topic's shape is a contract change for analysts and external
 * producers: add, never repurpose.
 */

/** Largest user payload the engine accepts (Temporal's limit); defined once, in the serde. */
export const MAX_PAYLOAD_BYTES = maxPayloadBytes;
/** Largest record (payload plus envelope) a producer may send. */
export const MAX_RECORD_BYTES = MAX_PAYLOAD_BYTES + 512 * 1024;
/** Topic `max.message.bytes`: room for a full batch holding one maximal record. */
export const TOPIC_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How the catalog is laid out for one deployment. */
export interface CatalogOptions {
  /** Topic name prefix; default `logbook`. */
  readonly prefix?: string;
  /** Number of shards. A one-way door: it is fixed when the topics are created. */
  readonly shards: number;
  /**
   * Replication factor of every topic; default 1 (single broker). The engine resolves it from its
   * flags and the cluster's size (see `resolveReplication`).
   */
  readonly replicationFactor?: number;
  /** `min.insync.replicas` of every topic; default 2 from a replication factor of 3, else 1. */
  readonly minInsyncReplicas?: number;
  /** Partitions of `<prefix>.replies`; default 4. */
  readonly replyPartitions?: number;
  /** Partitions of each task topic; default 4. */
  readonly taskPartitions?: number;
  /** Partitions of `<prefix>.audit`; default 4. Records are keyed by namespace, so each namespace's trail stays in order. */
  readonly auditPartitions?: number;
  /**
   * How long audit records are kept (`retention.ms`); default -1, forever. The trail is evidence:
   * shorten it only to what the deployment's compliance rules ask (e.g. 365 days).
   */
  readonly auditRetentionMs?: number;
}

/** The resolved topic names and specs of one deployment. */
export interface TopicCatalog {
  readonly prefix: string;
  readonly shards: number;
  /** Replication of every topic in the catalog, fixed and task topics alike. */
  readonly replication: ReplicationSettings;
  readonly commands: string;
  readonly commandsInternal: string;
  readonly history: string;
  readonly state: string;
  readonly visibility: string;
  readonly replies: string;
  readonly deadLetter: string;
  /** The namespace registry (compacted, one partition, key: the namespace name; `Namespace` records). */
  readonly namespaces: string;
  /** The audit trail (deleted by age only, never compacted; key: the namespace; `AuditRecord` records). */
  readonly audit: string;
  /** Specs of the fixed topics, created at start-up. */
  readonly fixedTopics: readonly TopicSpec[];
  /**
   * Task topic names of one namespace and task queue; created when first used. `query` carries
   * queries (`QueryTask`), co-partitioned with `workflow` (same key, same partition count) and
   * read by the queue's workflow workers apart from their workflow tasks.
   * @throws RangeError for a namespace or task queue the rules of `validation/name-rules.ts` refuse
   */
  taskTopics(namespace: string, taskQueue: string): { workflow: string; activity: string; control: string; query: string };
  /** Specs of the task topics of one namespace and task queue. */
  taskTopicSpecs(namespace: string, taskQueue: string): TopicSpec[];
  /** The shard (partition of the co-partitioned topics) a workflow belongs to. */
  shardOf(namespace: string, workflowId: string): number;
  /**
   * The names an ingress mapping works under: its consumer group, the prefix of its transactional
   * ids (one per source partition) and its default dead-letter topic.
   */
  ingressNames(mapping: string): { groupId: string; transactionalIdPrefix: string; deadLetter: string };
  /** The spec of an ingress mapping's dead-letter topic (one partition, kept 30 days, like the command dead letters). */
  ingressDeadLetterSpec(topic: string): TopicSpec;
  /** The compacted topic of the ingress mappings created through the API: `<prefix>.ingress-mappings`. */
  readonly ingressMappings: string;
  readonly ingressMappingsSpec: TopicSpec;
}

/** The consumer group of a task queue's workflow workers (Kafka workers and the gateways bridging HTTP pollers). */
export function workflowWorkersGroupId(catalog: Pick<TopicCatalog, 'prefix'>, namespace: string, taskQueue: string): string {
  return `${catalog.prefix}-workflow-workers-${namespace}-${taskQueue}`;
}

/** The consumer group of a task queue's activity workers (Kafka workers and the gateways bridging HTTP pollers). */
export function activityWorkersGroupId(catalog: Pick<TopicCatalog, 'prefix'>, namespace: string, taskQueue: string): string {
  return `${catalog.prefix}-activity-workers-${namespace}-${taskQueue}`;
}

/** The consumer group of a task queue's query workers: a query with no member in it has nobody to answer it. */
export function queryWorkersGroupId(catalog: Pick<TopicCatalog, 'prefix'>, namespace: string, taskQueue: string): string {
  return `${catalog.prefix}-query-workers-${namespace}-${taskQueue}`;
}

/** The key of commands, state and visibility records of a workflow: `ns/workflowId`. */
export function workflowKey(namespace: string, workflowId: string): string {
  return `${namespace}/${workflowId}`;
}

/** The key of a history record: `ns/workflowId/runId/eventId` (unique per event, so compaction keeps all). */
export function historyKey(namespace: string, workflowId: string, runId: string, eventId: number): string {
  return `${namespace}/${workflowId}/${runId}/${eventId}`;
}

/**
 * The key of an audit record: its namespace, so a namespace's trail is one partition, in order.
 * Calls about the deployment rather than one namespace (ingress mappings) use {@link DEPLOYMENT_AUDIT_NAMESPACE}.
 */
export function auditKey(namespace: string): string {
  return namespace;
}

/** The namespace an audit record names for a call about the whole deployment: not a valid namespace name, so never one's trail. */
export const DEPLOYMENT_AUDIT_NAMESPACE = '*';

/** Throws for a name the rules of `validation/name-rules.ts` refuse (one definition of what fits a topic name). */
function checkNamePart(problem: string | null): void {
  if (problem !== null) throw new RangeError(problem);
}

/** Builds the catalog for a deployment. */
export function topicCatalog(options: CatalogOptions): TopicCatalog {
  const prefix = options.prefix ?? 'logbook';
  const shards = options.shards;
  if (!Number.isInteger(shards) || shards < 1 || shards > 4096) {
    throw new RangeError(`shard count must be an integer from 1 to 4096, got ${shards}`);
  }
  checkNamePart(topicPrefixProblem(prefix));
  const auditRetentionMs = options.auditRetentionMs ?? -1;
  if (!Number.isInteger(auditRetentionMs) || (auditRetentionMs < 1 && auditRetentionMs !== -1)) {
    throw new RangeError(`audit retention must be a positive number of milliseconds or -1 (forever), got ${auditRetentionMs}`);
  }
  const replication = replicationWith(options.replicationFactor ?? 1, options.minInsyncReplicas);
  const base = {
    'max.message.bytes': String(TOPIC_MAX_MESSAGE_BYTES),
    'min.insync.replicas': String(replication.minInsyncReplicas),
  };
  const deleteAfter = (ms: number) => ({ ...base, 'cleanup.policy': 'delete', 'retention.ms': String(ms) });
  // Compacted changelogs roll segments hourly so the cleaner (which never touches the active
  // segment) can act, and max.compaction.lag bounds how long a superseded value or tombstone lingers.
  const compacted = {
    ...base,
    'cleanup.policy': 'compact',
    'segment.ms': String(HOUR_MS),
    'max.compaction.lag.ms': String(6 * HOUR_MS),
    'min.cleanable.dirty.ratio': '0.1',
    'delete.retention.ms': String(DAY_MS),
  };
  const spec = (name: string, partitions: number, config: Record<string, string>): TopicSpec => ({
    name,
    partitions,
    replicationFactor: replication.replicationFactor,
    config,
  });
  const names = {
    commands: `${prefix}.commands`,
    commandsInternal: `${prefix}.commands.internal`,
    history: `${prefix}.history`,
    state: `${prefix}.state`,
    visibility: `${prefix}.visibility`,
    replies: `${prefix}.replies`,
    deadLetter: `${prefix}.commands.dlq`,
    namespaces: `${prefix}.namespaces`,
    audit: `${prefix}.audit`,
  };
  const taskTopics = (namespace: string, taskQueue: string) => {
    checkNamePart(namespaceProblem(namespace));
    checkNamePart(taskQueueProblem(taskQueue, 'task queue'));
    const queue = taskQueueTopicPart(taskQueue);
    return {
      workflow: `${prefix}.tasks.workflow.${namespace}.${queue}`,
      activity: `${prefix}.tasks.activity.${namespace}.${queue}`,
      control: `${prefix}.tasks.control.${namespace}.${queue}`,
      query: `${prefix}.tasks.query.${namespace}.${queue}`,
    };
  };
  const taskPartitions = options.taskPartitions ?? 4;
  return {
    prefix,
    shards,
    replication,
    ...names,
    fixedTopics: [
      spec(names.commands, shards, deleteAfter(7 * DAY_MS)),
      spec(names.commandsInternal, shards, deleteAfter(7 * DAY_MS)),
      spec(names.history, shards, compacted),
      spec(names.state, shards, compacted),
      spec(names.visibility, shards, compacted),
      spec(names.replies, options.replyPartitions ?? 4, deleteAfter(HOUR_MS)),
      spec(names.deadLetter, 1, deleteAfter(30 * DAY_MS)),
      // One partition: the registry is small and every reader wants all of it, in write order.
      spec(names.namespaces, 1, compacted),
      // Deleted by age only: compaction would keep one record per namespace, and the trail is every call.
      spec(names.audit, options.auditPartitions ?? 4, deleteAfter(auditRetentionMs)),
    ],
    taskTopics,
    taskTopicSpecs(namespace, taskQueue) {
      const t = taskTopics(namespace, taskQueue);
      return [
        spec(t.workflow, taskPartitions, deleteAfter(7 * DAY_MS)),
        spec(t.activity, taskPartitions, deleteAfter(7 * DAY_MS)),
        spec(t.control, 1, deleteAfter(DAY_MS)),
        // A query is worthless once its asker gave up (seconds): an hour keeps the topic small.
        spec(t.query, taskPartitions, deleteAfter(HOUR_MS)),
      ];
    },
    shardOf: (namespace, workflowId) => partitionForKey(workflowKey(namespace, workflowId), shards),
    ingressNames: (mapping) => ({
      groupId: `${prefix}-ingress-${mapping}`,
      transactionalIdPrefix: `${prefix}-ingress-${mapping}`,
      deadLetter: `${prefix}.ingress.${mapping}.dlq`,
    }),
    ingressDeadLetterSpec: (topic) => spec(topic, 1, deleteAfter(30 * DAY_MS)),
    // Not under `<prefix>.ingress.`, where a mapping's dead-letter topic may be named.
    ingressMappings: `${prefix}.ingress-mappings`,
    ingressMappingsSpec: spec(`${prefix}.ingress-mappings`, 1, compacted),
  };
}
