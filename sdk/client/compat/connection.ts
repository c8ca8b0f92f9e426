/**
 * `Connection` of `logbook/client`: where a {@link Client} sends its calls — a Logbook gateway's
 * HTTP API, given as Temporal users give a frontend address (`host:port`) or as a URL, or, with
 * `brokers`, the deployment's Kafka cluster itself (reads still go through the gateway).
 * @module
 */
import { defaultClientId } from '../../../topics/log/client-id.js';
import type { KafkaSecurity } from '../../../topics/log/kafka-security.js';
import type { Log } from '../../../topics/log/log.js';
import { DeploymentUnreachableError, openDeployment } from '../../../topics/deployment.js';
import type { TopicCatalog } from '../../../topics/catalog.js';
import { ReplyListener } from '../../../topics/replies/reply-listener.js';
import { SingleObjectSerde, type Serde } from '../../../topics/serde/index.js';
import { CommandClient } from '../command-client.js';
import { gatewayRunLocator } from '../query-target.js';
import { WorkflowClient as GatewayWorkflowClient } from '../workflow-client.js';
import { KafkaWorkflowService } from './kafka-workflow-service.js';
import type { WorkflowService } from './workflow-service.js';
import { loadDataConverter, type DataConverterOption, type LoadedDataConverter } from '../../common/data-converter-option.js';
import { ClientPayloads } from '../client-payloads.js';
import { GatewayAccess, type GatewayCredentialOptions } from '../../common/gateway-access.js';
import { tlsFailureOf, tlsRequested, type TLSOption } from '../../common/gateway-tls.js';

/** The gateway's address when none is given: what `npm start` serves. */
export const DEFAULT_GATEWAY_ADDRESS = '127.0.0.1:8233';

/**
 * Options of {@link Connection.connect} (Temporal's `ConnectionOptions`, the parts that apply, and
 * Kafka's). `apiKey` is sent as `authorization: Bearer <apiKey>` and `metadata` as headers on every
 * call to the gateway (with brokers: its reads), over `tls` when given; no environment variable is
 * read, as Temporal's client reads none. `tls` is the gateway's; the brokers' is `security`.
 */
export interface ConnectionOptions extends GatewayCredentialOptions {
  /** `host:port` or `http(s)://host:port` of a gateway; default `127.0.0.1:8233` (`host:port` is https with `tls`). */
  readonly address?: string;
  /** How long `connect` waits for the gateway to answer, ms; default 10 s (the brokers are checked with the Kafka client's own timeouts). */
  readonly connectTimeout?: number;
  /**
   * Kafka bootstrap brokers (`host:port`): the client writes its commands to the deployment's
   * command topic and reads the engine's answers from the replies topic, with no gateway between
   * (for services next to Kafka). Describe, list, count, history and queries still read through the
   * gateway at `address`, which is not checked at connect.
   */
  readonly brokers?: readonly string[];
  /** With `brokers`: the deployment's topic prefix; default `logbook`. */
  readonly prefix?: string;
  /** With `brokers`: SASL and TLS, as the engine's. */
  readonly security?: KafkaSecurity;
  /** With `brokers`: the serde of the deployment's records; default the single-object encoding. */
  readonly serde?: Serde;
  /**
   * Temporal's `dataConverter`: `{ payloadConverter?, payloadCodecs? }` (or a converter alone); default
   * JSON without codecs. Codecs (encryption) apply on both paths; a `Client`'s own option overrides it.
   */
  readonly dataConverter?: DataConverterOption;
}

/** The gateway (or the brokers) could not be reached, or answered that it is not a Logbook deployment. */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** What a Kafka connection holds open: the command clients and their reply listener. */
interface KafkaPath {
  /** A command client writing with this converter and codecs (one per set, kept until close). */
  commands(loaded: LoadedDataConverter): CommandClient;
  close(): Promise<void>;
}

/**
 * A connection to a Logbook deployment. Through a gateway it is its address and credentials (HTTP
 * holds nothing open between calls); {@link Connection.connect} checks once that a gateway answers
 * there, so a wrong address fails at start-up instead of at the first start (a refused key fails
 * the first call, with a `ServiceError` `UNAUTHENTICATED` or `PERMISSION_DENIED`). With brokers it
 * holds a Kafka producer and the replies listener until {@link close}.
 *
 * @example
 * const connection = await Connection.connect({ address: 'logbook.example.com:8233', apiKey: token });
 * const client = new Client({ connection });
 * connection.setApiKey(renewedToken);   // the next call of `client` sends it
 */
export class Connection {
  private constructor(
    /** The gateway and the credentials every call to it carries; the clients made from this connection share it. */
    readonly access: GatewayAccess,
    private readonly kafka: KafkaPath | null,
    private readonly dataConverter: LoadedDataConverter = loadDataConverter(undefined),
  ) {}

  /** The gateway's base URL, e.g. `http://127.0.0.1:8233`. */
  get baseUrl(): string {
    return this.access.baseUrl;
  }

  /**
   * Replaces the API key (Temporal's `setApiKey`): every call made from now on, by every client of
   * this connection, sends the new one; calls already sent keep the old.
   */
  setApiKey(apiKey: string): void {
    this.access.setApiKey(apiKey);
  }

  /**
   * Connects to a gateway and checks that it answers, or, given `brokers`, to the deployment's
   * Kafka cluster and checks that it holds the prefix's topics.
   * @throws ConnectionError naming the address or brokers and why (refused, timed out, not a gateway,
   *   no deployment, a certificate the TLS handshake refused)
   * @throws TypeError for an address that is not `host:port` or an http(s) URL, or `tls` with an `http://` one
   */
  static async connect(options: ConnectionOptions = {}): Promise<Connection> {
    if (options.brokers) return Connection.overKafka(options);
    const connection = Connection.lazy(options);
    await connection.ensureConnected(options.connectTimeout ?? 10_000);
    return connection;
  }

  /** A gateway connection that is not checked until its first call (Temporal's `Connection.lazy`). */
  static lazy(options: Pick<ConnectionOptions, 'address' | 'dataConverter' | 'apiKey' | 'metadata' | 'tls'> = {}): Connection {
    return new Connection(connectionAccess(options), null, loadDataConverter(options.dataConverter));
  }

  /**
   * A Kafka connection over a log someone else holds (an engine in the same process, as tests and
   * embedded deployments run it); closing the connection leaves the log open.
   */
  static async fromLog(log: Log, catalog: TopicCatalog, options: Pick<ConnectionOptions, 'address' | 'serde' | 'dataConverter' | 'apiKey' | 'metadata' | 'tls'> = {}): Promise<Connection> {
    const access = connectionAccess(options);
    return new Connection(access, await kafkaPath(log, catalog, access, options, async () => undefined), loadDataConverter(options.dataConverter));
  }

  /**
   * Checks that a gateway answers at the address.
   * @throws ConnectionError when none does within `timeoutMs`
   */
  async ensureConnected(timeoutMs = 10_000): Promise<void> {
    let response: Response;
    try {
      response = await this.access.fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const tlsFailure = tlsFailureOf(error, this.baseUrl);
      if (tlsFailure) throw new ConnectionError(`cannot connect to the Logbook gateway: ${tlsFailure}`, { cause: error });
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new ConnectionError(`cannot reach a Logbook gateway at ${this.baseUrl} (${reason}); start one with \`npm start\` or pass Connection.connect({ address })`, { cause: error });
    }
    if (!response.ok) throw new ConnectionError(`${this.baseUrl}/healthz answered HTTP ${response.status}: is this a Logbook gateway?`);
  }

  /**
   * The workflow calls of one namespace, over Kafka when the connection has brokers, else over the
   * gateway; `dataConverter` (a client's own) overrides the connection's.
   */
  workflowService(namespace: string, dataConverter?: DataConverterOption): WorkflowService {
    const loaded = loadDataConverter(dataConverter, this.dataConverter);
    const payloads = loaded.codecs.length > 0 ? new ClientPayloads(loaded.converter, loaded.codecs) : undefined;
    const gateway = new GatewayWorkflowClient({ access: this.access, namespace, ...(payloads ? { payloads } : {}) });
    return this.kafka ? new KafkaWorkflowService(this.kafka.commands(loaded), namespace, gateway, payloads) : gateway;
  }

  /** Releases what the connection holds open (the Kafka clients); a gateway connection holds nothing. */
  async close(): Promise<void> {
    await this.kafka?.close();
  }

  private static async overKafka(options: ConnectionOptions): Promise<Connection> {
    const access = connectionAccess(options);
    const brokers = options.brokers!;
    let opened: Awaited<ReturnType<typeof openDeployment>>;
    try {
      opened = await openDeployment({ brokers, clientId: defaultClientId('client'), ...(options.prefix ? { prefix: options.prefix } : {}), ...(options.security ? { security: options.security } : {}) });
    } catch (error) {
      if (!(error instanceof DeploymentUnreachableError)) throw error;
      throw new ConnectionError(`${error.message}\nA client given brokers writes to the deployment's topics; to go through a gateway instead, leave brokers out and pass its address.`, { cause: error });
    }
    const { log, catalog } = opened;
    try {
      return new Connection(access, await kafkaPath(log, catalog, access, options, () => log.close()), loadDataConverter(options.dataConverter));
    } catch (error) {
      await log.close().catch(() => undefined);
      throw error;
    }
  }
}

/** Starts the replies listener and the command client of a Kafka connection; `closeLog` runs on close. */
async function kafkaPath(log: Log, catalog: TopicCatalog, access: GatewayAccess, options: Pick<ConnectionOptions, 'serde'>, closeLog: () => Promise<void>): Promise<KafkaPath> {
  const serde = options.serde ?? new SingleObjectSerde();
  const replies = new ReplyListener(log, catalog, serde);
  await replies.start();
  const clients = new Map<LoadedDataConverter, CommandClient>();
  return {
    commands(loaded) {
      let client = clients.get(loaded);
      if (!client) {
        // Commands are encoded on their way out; replies are decoded by the caller that awaits them.
        const written = loaded.codecs.length > 0 ? new ClientPayloads(loaded.converter, loaded.codecs).encodingSerde(serde) : serde;
        client = new CommandClient(log, catalog, written, replies, loaded.converter, { identity: 'logbook-client', locateRun: gatewayRunLocator(access) });
        clients.set(loaded, client);
      }
      return client;
    },
    async close() {
      await replies.stop();
      await Promise.all([...clients.values()].map((c) => c.close()));
      await closeLog();
    },
  };
}

/** The gateway, credentials and TLS of a connection's options. */
function connectionAccess(options: Pick<ConnectionOptions, 'address' | 'apiKey' | 'metadata' | 'tls'>): GatewayAccess {
  return new GatewayAccess(gatewayUrl(options.address ?? DEFAULT_GATEWAY_ADDRESS, options.tls), options);
}

/** `host:port` (https when `tls` asks for TLS, as Temporal's addresses carry no scheme) or an http(s) URL as a base URL without a trailing slash. */
function gatewayUrl(address: string, tls: TLSOption | undefined): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `${tlsRequested(tls) ? 'https' : 'http'}://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TypeError(`address ${JSON.stringify(address)} is not host:port or an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`address ${JSON.stringify(address)}: a gateway is reached over http or https`);
  return url.href.replace(/\/+$/, '');
}
