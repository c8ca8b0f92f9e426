/**
 * How the SDK reaches a gateway: its base URL(s) and the credentials every call carries — Temporal's
 * `apiKey` (sent as a bearer token), `metadata` (extra headers) and `tls` (a private CA, a client
 * certificate). Clients and workers hold one
 * {@link GatewayAccess} where they used to hold a base URL, and send every HTTP call through it, so
 * a key set by `setApiKey` applies to the next call of every client made from the connection.
 * @module
 */

import type { Dispatcher } from 'undici';
import { checkTlsScheme, tlsDispatcher, type TLSOption } from './gateway-tls.js';

/** The credential options of `Connection.connect` and `NativeConnection.connect` (Temporal's names). */
export interface GatewayCredentialOptions {
  /**
   * Sent as `authorization: Bearer <apiKey>` on every call to the gateway (Temporal's `apiKey`):
   * a token the gateway's `--auth` accepts.
   */
  readonly apiKey?: string;
  /**
   * Headers sent on every call (Temporal's `metadata`), e.g. one a proxy in front of the gateway
   * reads. An `authorization` entry is the bearer token when no `apiKey` is given.
   */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * TLS to the gateway (Temporal's `tls`): `true` for Node's default CAs, or `{ serverRootCACertificate,
   * clientCertPair, serverNameOverride }` to trust a private CA and present a client certificate to a
   * gateway run with `--tls-client-ca`. With it an address without a scheme is `https://`.
   */
  readonly tls?: TLSOption;
}

/**
 * Headers made for each call from its method and URL: a credential bound to the call, as one
 * engine node signs its calls to another.
 */
export type PerCallHeaders = (method: string, url: string) => Readonly<Record<string, string>>;

/** The headers a call adds to the ones of its access. */
export type CallHeaders = Readonly<Record<string, string>>;

/** What a fetch through an access takes: `fetch`'s init, with plain-object headers. */
export type AccessInit = Omit<RequestInit, 'headers'> & { readonly headers?: CallHeaders };

/** What `setApiKey` changes: one object per access, which every client of a connection shares. */
interface Credentials {
  apiKey: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * One or more gateway base URLs and the credentials to send them.
 *
 * @example
 * const access = new GatewayAccess('http://127.0.0.1:8233', { apiKey: process.env.LOGBOOK_API_KEY });
 * const response = await access.fetch(`${access.baseUrl}/api/v1/namespaces`);
 */
export class GatewayAccess {
  /** Base URLs without a trailing slash, tried in turn by the callers that take several. */
  readonly baseUrls: readonly string[];
  private readonly credentials: Credentials;
  private readonly perCall: PerCallHeaders | undefined;
  /** Set when `tls` asks for more than Node's defaults: a private CA, a client certificate or a server name. */
  private readonly dispatcher: Dispatcher | undefined;

  /**
   * @param baseUrls `http(s)://host:port`, one or several (a worker's gateways)
   * @param options the credentials; `perCall` adds headers made for each call
   * @throws TypeError for no base URL, both `apiKey` and an `authorization` metadata entry, or
   *   `tls` that contradicts a base URL's scheme
   */
  constructor(baseUrls: string | readonly string[], options: GatewayCredentialOptions & { readonly perCall?: PerCallHeaders } = {}) {
    this.baseUrls = (typeof baseUrls === 'string' ? [baseUrls] : [...baseUrls]).map((b) => b.replace(/\/+$/, ''));
    if (this.baseUrls.length === 0) throw new TypeError('a gateway access needs at least one gateway address');
    this.credentials = credentialsOf(options);
    this.perCall = options.perCall;
    for (const base of this.baseUrls) checkTlsScheme(base, options.tls);
    this.dispatcher = tlsDispatcher(options.tls);
  }

  /** The first (for a client, the only) base URL. */
  get baseUrl(): string {
    return this.baseUrls[0]!;
  }

  /** Replaces the API key (Temporal's `setApiKey`): calls made from now on send the new one. */
  setApiKey(apiKey: string): void {
    this.credentials.apiKey = apiKey;
  }

  /** The headers every call carries now: the metadata, and the API key as a bearer token. */
  headers(): Record<string, string> {
    const { apiKey, metadata } = this.credentials;
    return { ...metadata, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) };
  }

  /** `fetch` with the access's headers (a call's own headers added; its content type, say) and TLS settings. */
  fetch(url: string, init: AccessInit = {}): Promise<Response> {
    const headers = { ...this.headers(), ...this.perCall?.(init.method ?? 'GET', url), ...init.headers };
    return fetch(url, { ...init, headers, ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}) });
  }
}

function credentialsOf(options: GatewayCredentialOptions): Credentials {
  // Header names are case-insensitive: keep them lower-case so the bearer token replaces, never doubles, one.
  const metadata = Object.fromEntries(Object.entries(options.metadata ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  // With both, which one is sent would not be obvious to whoever reads the call.
  if (options.apiKey !== undefined && metadata.authorization !== undefined) throw new TypeError('pass apiKey or an authorization metadata entry, not both');
  return { apiKey: options.apiKey, metadata };
}

/** How a client that calls one gateway is told where it is and what to send. */
export interface GatewayClientOptions extends GatewayCredentialOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8233`; default that. */
  readonly address?: string;
  /**
   * A connection's access, instead of `address`, `apiKey` and `metadata`: the client then follows
   * the connection's `setApiKey`.
   */
  readonly access?: GatewayAccess;
}

/** The access a client's options describe. */
export function accessOf(options: GatewayClientOptions): GatewayAccess {
  return options.access ?? new GatewayAccess(options.address ?? 'http://127.0.0.1:8233', options);
}
