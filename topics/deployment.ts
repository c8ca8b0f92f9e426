/**
 * Opening a Logbook deployment on Kafka from outside the engine (a worker or client process):
 * the brokers must answer and the prefix's command topic must exist; its partition count is the
 * deployment's shard count, from which the topic catalog follows.
 * @module
 */
import { topicCatalog, type TopicCatalog } from './catalog.js';
import type { KafkaSecurity } from './log/kafka-security.js';
import type { Log } from './log/log.js';
import { checkLogLocation, openLog } from './log/open-log.js';
import { resolveReplication } from './replication.js';

/** Where a deployment is. */
export interface DeploymentLocation {
  readonly brokers: readonly string[];
  /** The deployment's topic prefix; default `logbook`. */
  readonly prefix?: string;
  readonly security?: KafkaSecurity;
  /** The Kafka client id of this process's clients. */
  readonly clientId: string;
}

/** The brokers cannot be used (nothing listening, security that does not fit) or no engine created the prefix's topics. */
export class DeploymentUnreachableError extends Error {
  constructor(
    message: string,
    /** True when the brokers answered but hold no deployment under the prefix. */
    readonly noDeployment: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeploymentUnreachableError';
  }
}

/**
 * Opens the log on the deployment's brokers and reads its catalog; close the log when done.
 * @throws DeploymentUnreachableError saying why (the broker check's message, or the missing topic)
 */
export async function openDeployment(location: DeploymentLocation): Promise<{ log: Log; catalog: TopicCatalog }> {
  const prefix = location.prefix ?? 'logbook';
  const kafka = { kind: 'kafka' as const, brokers: location.brokers, clientId: location.clientId, ...(location.security ? { security: location.security } : {}) };
  try {
    await checkLogLocation(kafka);
  } catch (error) {
    throw new DeploymentUnreachableError((error as Error).message, false, { cause: error });
  }
  const log = await openLog(kafka);
  try {
    const commands = `${prefix}.commands`;
    const described = (await log.admin.describeTopics([commands])).get(commands);
    if (!described) {
      throw new DeploymentUnreachableError(`no Logbook deployment with topic prefix '${prefix}' on ${location.brokers.join(',')}: topic ${commands} does not exist (start an engine first, or pass the prefix it uses)`, true);
    }
    // Task topics a worker creates get the replication the engine would give them.
    const replication = await resolveReplication(log.admin);
    return { log, catalog: topicCatalog({ prefix, shards: described.partitions, replicationFactor: replication.replicationFactor, minInsyncReplicas: replication.minInsyncReplicas }) };
  } catch (error) {
    await log.close().catch(() => undefined);
    throw error;
  }
}
