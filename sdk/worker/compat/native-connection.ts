/**
 * `NativeConnection` of `logbook/worker`: what a worker process connects to. Either the
 * deployment's Kafka cluster for its tasks and commands (given `brokers`, or
 * `LOGBOOK_KAFKA_BROKERS`), or — as Temporal users connect to a dev server — a gateway alone, whose
 * HTTP task endpoints hand out the tasks. Either way history pages for replays come from a gateway,
 * and no engine runs in the worker's process.
 * @module
 */
import { defaultClientId } from '../../../topics/log/client-id.js';
import type { KafkaSecurity } from '../../../topics/log/kafka-security.js';
import type { Log } from '../../../topics/log/log.js';
import { DeploymentUnreachableError, openDeployment } from '../../../topics/deployment.js';
import { loadDataConverter, type DataConverterOption } from '../../common/data-converter-option.js';
import { SingleObjectSerde, type Serde } from '../../../topics/serde/index.js';
import { gatewayHistoryFetcher } from '../gateway-history-fetcher.js';
import type { WorkerConnection } from '../worker-connection.js';
import type { HistoryFetcher } from '../workflow-worker.js';
import { isGatewayConnection, type GatewayWorkerConnection } from '../http/gateway-worker-connection.js';
import { GatewayAccess, type GatewayCredentialOptions } from '../../common/gateway-access.js';
import { tlsFailureOf, tlsRequested, type TLSOption } from '../../common/gateway-tls.js';

/** The gateway a worker reaches when given no address: what `npm start` serves. */
const DEFAULT_GATEWAY = '127.0.0.1:8233';

/**
 * Options of {@link NativeConnection.connect}. `apiKey` (default `LOGBOOK_API_KEY`, as brokers default
 * to `LOGBOOK_KAFKA_BROKERS`) is sent as `authorization: Bearer <apiKey>` and `metadata` as headers
 * on every call to a gateway: task polls and answers, history pages, worker reports — over `tls`
 * when given (the gateway's TLS; the brokers' is `security`).
 */
export interface NativeConnectionOptions extends GatewayCredentialOptions {
  /**
   * Kafka bootstrap brokers (`host:port`): the worker reads its task topics. Default
   * `LOGBOOK_KAFKA_BROKERS` (comma-separated); with neither, the worker polls the gateway at
   * `address` over HTTP.
   */
  readonly brokers?: readonly string[];
  /**
   * Gateway(s), `host:port` or URL, tried in turn; default `127.0.0.1:8233` (what `npm start`
   * serves; `host:port` is https with `tls`). They serve history pages, and the tasks themselves
   * when no brokers are given (Temporal's `address`).
   */
  readonly address?: string | readonly string[];
  /**
   * Where tasks come from: `'kafka'`, the task topics (the default when brokers are given or
   * `LOGBOOK_KAFKA_BROKERS` is set), or `'gateway'`, the gateway's HTTP task endpoints (the default
   * otherwise).
   */
  readonly taskPath?: 'kafka' | 'gateway';
  /** How long `connect` waits for a gateway to answer when it connects through one, ms; default 10 s. */
  readonly connectTimeout?: number;
  /** The deployment's topic prefix; default `logbook`. */
  readonly prefix?: string;
  /** SASL and TLS to the brokers, as the engine's. */
  readonly security?: KafkaSecurity;
  /** The serde of the deployment's records; default the single-object encoding (as the engine's default). */
  readonly serde?: Serde;
  /** Temporal's `dataConverter` (`{ payloadConverter?, payloadCodecs? }`, or a converter alone) of every worker on this connection; default JSON without codecs. */
  readonly dataConverter?: DataConverterOption;
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
    /** What the workers use: the log, the topic names, the serde and the data converter — or the gateways of the HTTP task path. */
    readonly workerConnection: WorkerConnection | GatewayWorkerConnection,
    /** Where workflow workers page histories from. */
    readonly history: HistoryFetcher,
    private readonly owned: Log | null,
    /** The gateways and the credentials every call to them carries (none for a connection made from parts over Kafka). */
    readonly access?: GatewayAccess,
  ) {}

  /** The gateways' base URLs (empty for a connection made from parts over Kafka): workers report their measurements there. */
  get gateways(): readonly string[] {
    return this.access?.baseUrls ?? [];
  }

  /**
   * Replaces the API key (Temporal's `setApiKey`): the polls, answers, history pages and reports of
   * every worker on this connection sent from now on carry the new one.
   * @throws NativeConnectionError for a connection made from parts over Kafka: it calls no gateway of its own
   */
  setApiKey(apiKey: string): void {
    if (!this.access) throw new NativeConnectionError('this connection was made from parts and calls no gateway of its own: give its history fetcher the key instead');
    this.access.setApiKey(apiKey);
  }

  /**
   * Connects a worker process to the deployment. With brokers (the option or
   * `LOGBOOK_KAFKA_BROKERS`) it checks that the brokers answer and that the prefix's command topic
   * exists (its partitions are the deployment's shards); without, it checks that a gateway answers
   * at `address`, and the workers poll its HTTP task endpoints.
   * @throws NativeConnectionError when the brokers cannot be used (nothing listening, security that
   *   does not fit; the message says why and what a worker process needs), no engine created the
   *   prefix's topics, or no gateway answers
   */
  static async connect(options: NativeConnectionOptions = {}): Promise<NativeConnection> {
    const fromEnvironment = process.env.LOGBOOK_KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
    const brokers = options.brokers ?? (fromEnvironment?.length ? fromEnvironment : undefined);
    const gateways = new GatewayAccess(gatewayUrls(options.address ?? DEFAULT_GATEWAY, options.tls), credentialsOf(options));
    const taskPath = options.taskPath ?? (brokers ? 'kafka' : 'gateway');
    if (taskPath === 'gateway') return NativeConnection.throughGateway(gateways, options);
    if (!brokers) throw new NativeConnectionError(`taskPath 'kafka' needs brokers: pass them, or set LOGBOOK_KAFKA_BROKERS`);
    let opened: Awaited<ReturnType<typeof openDeployment>>;
    try {
      opened = await openDeployment({ brokers, clientId: defaultClientId('worker'), ...(options.prefix ? { prefix: options.prefix } : {}), ...(options.security ? { security: options.security } : {}) });
    } catch (error) {
      if (!(error instanceof DeploymentUnreachableError)) throw error;
      if (error.noDeployment) throw new NativeConnectionError(error.message, { cause: error });
      // Temporal users start a dev server and a worker next to it: say what a worker process needs here.
      throw new NativeConnectionError(
        `${error.message}\nA worker process given brokers (the option, or LOGBOOK_KAFKA_BROKERS) reaches the engine through them. ` +
          'To work through a gateway instead (a dev server on its embedded backend), leave brokers out and pass its address.',
        { cause: error },
      );
    }
    const { converter, codecs } = loadDataConverter(options.dataConverter);
    const connection = { ...opened, serde: options.serde ?? new SingleObjectSerde(), dataConverter: converter, payloadCodecs: codecs };
    return new NativeConnection(connection, gatewayHistoryFetcher(gateways), opened.log, gateways);
  }

  /** Checks that a gateway answers, then connects the workers to its HTTP task endpoints. */
  private static async throughGateway(gateways: GatewayAccess, options: NativeConnectionOptions): Promise<NativeConnection> {
    const timeoutMs = options.connectTimeout ?? 10_000;
    const problems: string[] = [];
    for (const gateway of gateways.baseUrls) {
      const problem = await gatewayProblem(gateways, gateway, timeoutMs);
      if (problem === null) {
        const { converter, codecs } = loadDataConverter(options.dataConverter);
        const connection: GatewayWorkerConnection = { kind: 'gateway', gateways, dataConverter: converter, payloadCodecs: codecs };
        return new NativeConnection(connection, gatewayHistoryFetcher(gateways), null, gateways);
      }
      problems.push(problem);
    }
    throw new NativeConnectionError(
      `cannot reach a Logbook gateway: ${problems.join('; ')}. A worker without brokers polls a gateway's task endpoints: start one with \`npm start\`, ` +
        'pass NativeConnection.connect({ address }), or give brokers (or LOGBOOK_KAFKA_BROKERS) to read the task topics directly',
    );
  }

  /**
   * A connection over a log someone else holds (an engine in the same process, as tests and the
   * dev server run it); closing it leaves that log open.
   */
  static fromParts(workerConnection: WorkerConnection | GatewayWorkerConnection, history: HistoryFetcher): NativeConnection {
    return new NativeConnection(workerConnection, history, null, isGatewayConnection(workerConnection) ? workerConnection.gateways : undefined);
  }

  /** Closes the Kafka clients this connection opened. */
  async close(): Promise<void> {
    await this.owned?.close();
  }
}

/**
 * The credentials of the options: `LOGBOOK_API_KEY` when neither a key nor an authorization metadata
 * entry is given (an empty variable is no key, not an empty bearer token the gateway would refuse).
 */
function credentialsOf(options: NativeConnectionOptions): GatewayCredentialOptions {
  const authorizationInMetadata = Object.keys(options.metadata ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const apiKey = options.apiKey ?? (authorizationInMetadata ? undefined : process.env.LOGBOOK_API_KEY || undefined);
  return { ...options, apiKey };
}

/** Why no gateway answers at `base`, or null when one does. */
async function gatewayProblem(access: GatewayAccess, base: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await access.fetch(`${base}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? null : `${base}/healthz answered HTTP ${response.status} (is this a Logbook gateway?)`;
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return tlsFailureOf(error, base) ?? `${base} (${reason})`;
  }
}

/** Each address as a base URL: `host:port` is https when `tls` asks for TLS, as Temporal's addresses carry no scheme. */
function gatewayUrls(address: string | readonly string[], tls: TLSOption | undefined): string[] {
  const scheme = tlsRequested(tls) ? 'https' : 'http';
  return (typeof address === 'string' ? [address] : [...address]).map((a) => (/^https?:\/\//i.test(a) ? a : `${scheme}://${a}`));
}
