import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
// Test tooling: the harness counts the topics the run created, which the log interface does not list.
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { startKafka, type RunningKafka } from '../kafka/broker.js';
import { freePorts } from '../kafka/config.js';
import { ChaosProcess, engineEnv, workerEnv, type ProcessContext } from './chaos-processes.js';
import type { ShardFailure, TimedShardEvent } from './shard-failures.js';

/**
 * The cluster of a chaos run: three Kafka brokers (RF 3, min ISR 2), two engine nodes without
 * workers (fixed ports, so a restarted node comes back where it was), and worker processes for the
 * chaos task queue that page histories from either gateway.
 */

/** The engine's topics are created with this replication factor (min.insync.replicas 2 follows from it, see topics/catalog.ts). */
export const REPLICATION_FACTOR = 3;
const ENGINE_NODES = 2;

/** A running cluster. */
export interface ChaosCluster {
  readonly kafka: RunningKafka;
  readonly engines: readonly ChaosProcess[];
  readonly workers: readonly ChaosProcess[];
  /** One activity execution log per worker process. */
  readonly activityLogs: readonly string[];
  /** Topics whose name starts with the run's prefix. */
  countTopics(): Promise<number>;
  /** Stops workers, then engine nodes (SIGTERM), then the brokers. */
  stop(): Promise<void>;
}

/** What a cluster is started with. */
export interface ClusterPlan {
  readonly prefix: string;
  readonly shards: number;
  readonly workerProcesses: number;
  /** Broker data, shard stores and activity logs. */
  readonly dataDir: string;
  /** Process logs. */
  readonly logDir: string;
  readonly log: (line: string) => void;
  readonly onShardFailure: (failure: ShardFailure) => void;
  readonly onShardEvent: (event: TimedShardEvent) => void;
  readonly onCrash: (description: string) => void;
}

/** Starts the brokers, then the engine nodes one after the other, then the workers. */
export async function startChaosCluster(plan: ClusterPlan): Promise<ChaosCluster> {
  await mkdir(plan.logDir, { recursive: true });
  const kafka = await startKafka({ nodes: 3, dataDir: join(plan.dataDir, 'kafka'), onProgress: plan.log });
  const context: ProcessContext = {
    brokers: kafka.brokers,
    prefix: plan.prefix,
    shards: plan.shards,
    replicationFactor: REPLICATION_FACTOR,
    logDir: plan.logDir,
    onShardFailure: plan.onShardFailure,
    onShardEvent: plan.onShardEvent,
    onCrash: plan.onCrash,
  };
  const ports = await freePorts(ENGINE_NODES);
  const engines = ports.map((port, i) => {
    const name = `engine-${i + 1}`;
    return new ChaosProcess(name, context, engineEnv(context, join(plan.dataDir, name), port), `http://127.0.0.1:${port}`);
  });
  const gateways = engines.map((e) => e.endpoint!);
  const activityLogs = Array.from({ length: plan.workerProcesses }, (_, i) => join(plan.dataDir, `activity-executions-worker-${i + 1}.jsonl`));
  const workers = activityLogs.map((file, i) => new ChaosProcess(`worker-${i + 1}`, context, workerEnv(context, gateways, file), undefined));
  const admin = new Kafka({ clientId: 'chaos-topics', brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin();
  const stop = async () => {
    await admin.disconnect().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(engines.map((e) => e.stop()));
    await kafka.stop();
  };
  try {
    // One after the other: two first starts on a fresh cluster race to create the same topics.
    for (const engine of engines) {
      await engine.start();
      plan.log(`${engine.name} ready at ${engine.endpoint} (pid ${engine.pid})`);
    }
    for (const worker of workers) await worker.start();
    plan.log(`${workers.length} worker process(es) ready for task queue chaos`);
    await admin.connect();
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    kafka,
    engines,
    workers,
    activityLogs,
    async countTopics() {
      return (await admin.listTopics()).filter((t) => t.startsWith(`${plan.prefix}.`)).length;
    },
    stop,
  };
}
