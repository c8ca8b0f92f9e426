/**
 * `Connection` of `logbook/client`: where a {@link Client} sends its calls — a Logbook gateway's
 * HTTP API, given as Temporal users give a frontend address (`host:port`) or as a URL.
 * @module
 */

/** The gateway's address when none is given: what `npm start` serves. */
export const DEFAULT_GATEWAY_ADDRESS = '127.0.0.1:8233';

/** Options of {@link Connection.connect} (Temporal's `ConnectionOptions`, the parts that apply). */
export interface ConnectionOptions {
  /** `host:port` or `http(s)://host:port` of a gateway; default `127.0.0.1:8233`. */
  readonly address?: string;
  /** How long `connect` waits for the gateway to answer, ms; default 10 s. */
  readonly connectTimeout?: number;
}

/** The gateway could not be reached (or answered that it is not a Logbook gateway). */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/**
 * A connection to a Logbook gateway. HTTP holds nothing open between calls, so a connection is
 * its address; {@link Connection.connect} checks once that a gateway answers there, so a wrong
 * address fails at start-up instead of at the first start.
 */
export class Connection {
  private constructor(
    /** The gateway's base URL, e.g. `http://127.0.0.1:8233`. */
    readonly baseUrl: string,
  ) {}

  /**
   * Connects to a gateway and checks that it answers.
   * @throws ConnectionError naming the address and why (refused, timed out, not a gateway)
   * @throws TypeError for an address that is not `host:port` or an http(s) URL
   */
  static async connect(options: ConnectionOptions = {}): Promise<Connection> {
    const connection = Connection.lazy(options);
    await connection.ensureConnected(options.connectTimeout ?? 10_000);
    return connection;
  }

  /** A connection that is not checked until its first call (Temporal's `Connection.lazy`). */
  static lazy(options: ConnectionOptions = {}): Connection {
    return new Connection(gatewayUrl(options.address ?? DEFAULT_GATEWAY_ADDRESS));
  }

  /**
   * Checks that a gateway answers at the address.
   * @throws ConnectionError when none does within `timeoutMs`
   */
  async ensureConnected(timeoutMs = 10_000): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new ConnectionError(`cannot reach a Logbook gateway at ${this.baseUrl} (${reason}); start one with \`npm start\` or pass Connection.connect({ address })`, { cause: error });
    }
    if (!response.ok) throw new ConnectionError(`${this.baseUrl}/healthz answered HTTP ${response.status}: is this a Logbook gateway?`);
  }

  /** Nothing to release (HTTP keeps no session); here so Temporal code that closes its connection runs. */
  async close(): Promise<void> {}
}

/** `host:port` or an http(s) URL as a base URL without a trailing slash. */
function gatewayUrl(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TypeError(`address ${JSON.stringify(address)} is not host:port or an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`address ${JSON.stringify(address)}: a gateway is reached over http or https`);
  return url.href.replace(/\/+$/, '');
}
