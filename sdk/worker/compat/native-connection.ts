/**
 * `NativeConnection` of `logbook/worker`: what a worker process connects to — the deployment's
 * Kafka cluster for its tasks and commands, and a gateway for the history pages it replays from
 * on a cache miss. No engine runs in the worker's process.
 * @module
 */
import { topicCatalog } from '../../../topics/catalog.js';
import { defaultClientId } from '../../../topics/log/client-id.js';
import type { KafkaSecurity } from '../../../topics/log/kafka-security.js';
import type { Log } from '../../../topics/log/log.js';
import { checkLogLocation, openLog } from '../../../topics/log/open-log.js';
import { defaultDataConverter, type DataConverter } from '../../../topics/payload/index.js';
import { resolveReplication } from '../../../topics/replication.js';
import { SingleObjectSerde, type Serde } from '../../../topics/serde/index.js';
import { gatewayHistoryFetcher } from '../gateway-history-fetcher.js';
import type { WorkerConnection } from '../worker-connection.js';
import type { HistoryFetcher } from '../workflow-worker.js';

/** Options of {@link NativeConnection.connect}. */
export interface NativeConnectionOptions {
  /** Kafka bootstrap brokers (`host:port`); default `LOGBOOK_KAFKA_BROKERS` (comma-separated), else `127.0.0.1:9092`. */
  readonly brokers?: readonly string[];
  /** Gateway(s) that serve history pages, `host:port` or URL, tried in turn; default `127.0.0.1:8233` (Temporal's `address`). */
  readonly address?: string | readonly string[];
  /** The deployment's topic prefix; default `logbook`. */
  readonly prefix?: string;
  /** SASL and TLS to the brokers, as the engine's. */
  readonly security?: KafkaSecurity;
  /** The serde of the deployment's records; default the single-object encoding (as the engine's default). */
  readonly serde?: Serde;
  /** The data converter of payloads; default JSON. */
  readonly dataConverter?: DataConverter;
}

/** A deployment that cannot be used from here: no brokers answering, or no Logbook topics under the prefix. */
export class NativeConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NativeConnectionError';
  }
}

/** A worker's connection to a Logbook deployment; close it after the workers using it stopped. */
export class NativeConnection {
  private constructor(
    /** What the workers use: the log, the topic names, the serde and the data converter. */
    readonly workerConnection: WorkerConnection,
    /** Where workflow workers page histories from. */
    readonly history: HistoryFetcher,
    private readonly owned: Log | null,
  ) {}

  /**
   * Connects to the deployment's Kafka cluster and checks it is one: the brokers answer and the
   * prefix's command topic exists (its partitions are the deployment's shards).
   * @throws NativeConnectionError when the brokers cannot be used (nothing listening, security that
   *   does not fit; the message says why and what a worker process needs) or no engine created the
   *   prefix's topics
   */
  static async connect(options: NativeConnectionOptions = {}): Promise<NativeConnection> {
    const brokers = options.brokers ?? (process.env.LOGBOOK_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean);
    const prefix = options.prefix ?? 'logbook';
    const location = { kind: 'kafka' as const, brokers, clientId: defaultClientId('worker'), ...(options.security ? { security: options.security } : {}) };
    try {
      await checkLogLocation(location);
    } catch (error) {
      // Temporal users start a dev server and a worker next to it: say what a worker process needs here.
      throw new NativeConnectionError(
        `${(error as Error).message}\nA worker process reaches the engine through the deployment's Kafka brokers (brokers, or LOGBOOK_KAFKA_BROKERS). ` +
          'A dev server on its embedded backend (npm start without --kafka) runs its workers in its own process: start it with --kafka <brokers> to run workers of your own.',
        { cause: error },
      );
    }
    const log = await openLog(location);
    try {
      const commands = `${prefix}.commands`;
      const described = (await log.admin.describeTopics([commands])).get(commands);
      if (!described) {
        throw new NativeConnectionError(`no Logbook deployment with topic prefix '${prefix}' on ${brokers.join(',')}: topic ${commands} does not exist (start an engine first, or pass the prefix it uses)`);
      }
      // The task topics a worker creates get the replication the engine would give them.
      const replication = await resolveReplication(log.admin);
      const catalog = topicCatalog({ prefix, shards: described.partitions, replicationFactor: replication.replicationFactor, minInsyncReplicas: replication.minInsyncReplicas });
      const connection = { log, catalog, serde: options.serde ?? new SingleObjectSerde(), dataConverter: options.dataConverter ?? defaultDataConverter };
      return new NativeConnection(connection, gatewayHistoryFetcher(gatewayUrls(options.address ?? '127.0.0.1:8233')), log);
    } catch (error) {
      await log.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A connection over a log someone else holds (an engine in the same process, as tests and the
   * dev server run it); closing it leaves that log open.
   */
  static fromParts(workerConnection: WorkerConnection, history: HistoryFetcher): NativeConnection {
    return new NativeConnection(workerConnection, history, null);
  }

  /** Closes the Kafka clients this connection opened. */
  async close(): Promise<void> {
    await this.owned?.close();
  }
}

function gatewayUrls(address: string | readonly string[]): string[] {
  return (typeof address === 'string' ? [address] : [...address]).map((a) => (/^https?:\/\//i.test(a) ? a : `http://${a}`));
}
