/**
 * Temporal's `tls` connection option for the gateway's HTTPS listener: trust a private CA, present
 * a client certificate (mTLS), check the certificate against another name. Node's global `fetch`
 * takes no TLS settings of its own, only a `dispatcher`, so a TLS setting becomes an `Agent` of
 * `undici` (the library Node's `fetch` is built on; Node's bundled copy exposes no `Agent`).
 * @module
 */
import { Agent, type Dispatcher } from 'undici';

/**
 * TLS to a gateway, in Temporal's shape (`TLSConfig` of `@temporalio/client`).
 *
 * @example
 * const tls: TLSConfig = {
 *   serverRootCACertificate: readFileSync('ca.pem'),
 *   clientCertPair: { crt: readFileSync('billing-worker.pem'), key: readFileSync('billing-worker.key') },
 * };
 */
export interface TLSConfig {
  /**
   * PEM of the CA that signed the gateway's certificate. It replaces the CAs Node trusts by default
   * for this connection, as Temporal's does; without it those default CAs are used.
   */
  readonly serverRootCACertificate?: Buffer;
  /** PEM certificate and private key presented to a gateway run with `--tls-client-ca` (mTLS). */
  readonly clientCertPair?: { readonly crt: Buffer; readonly key: Buffer };
  /** The name the gateway's certificate is checked against (and sent as SNI) instead of the address's host. */
  readonly serverNameOverride?: string;
}

/**
 * Temporal's `tls` option: `true` for TLS with Node's default CAs, a {@link TLSConfig}, or
 * `false`/`null`/absent for none (then an `https://` address still uses TLS with the defaults).
 */
export type TLSOption = boolean | TLSConfig | null;

/** Whether `tls` asks for TLS, so that an address without a scheme means `https://`. */
export function tlsRequested(tls: TLSOption | undefined): boolean {
  return tls !== undefined && tls !== null && tls !== false;
}

/**
 * The dispatcher `fetch` needs for `tls`, or `undefined` when Node's defaults serve (no option,
 * `true`, or a config with nothing set). One per access: its connections are kept and reused.
 */
export function tlsDispatcher(tls: TLSOption | undefined): Dispatcher | undefined {
  if (!tls || tls === true) return undefined;
  const { serverRootCACertificate: ca, clientCertPair: pair, serverNameOverride: servername } = tls;
  if (ca === undefined && pair === undefined && servername === undefined) return undefined;
  return new Agent({ connect: { ...(ca ? { ca } : {}), ...(pair ? { cert: pair.crt, key: pair.key } : {}), ...(servername ? { servername } : {}) } });
}

/**
 * `base` (an http(s) URL) checked against `tls`: TLS asked for an `http://` address, or refused
 * (`false`) for an `https://` one, is a contradiction the caller must resolve.
 * @throws TypeError naming the address and what to change
 */
export function checkTlsScheme(base: string, tls: TLSOption | undefined): void {
  const https = /^https:/i.test(base);
  if (tlsRequested(tls) && !https) throw new TypeError(`address ${base} is plain http but tls is set: give the address as host:port or https://host:port`);
  if (tls === false && https) throw new TypeError(`address ${base} is https but tls is false: leave tls out, or give an http address`);
}

const SDK_NAMES = { ca: 'tls: { serverRootCACertificate }', serverName: 'tls: { serverNameOverride }' };

/** OpenSSL's and Node's codes of a handshake that failed on a certificate or on the protocol. */
const TLS_FAILURE = /CERT|SSL|TLS|SIGNATURE|ISSUER|EPROTO/;

/**
 * What went wrong when `error` (thrown by `fetch` to `base`) is a failed TLS handshake, in one
 * sentence naming the certificate problem and its remedy; `undefined` for any other failure.
 * @param names how the caller's options are named (the SDK's by default; the CLI passes its flags)
 */
export function tlsFailureOf(error: unknown, base: string, names: { ca: string; serverName: string } = SDK_NAMES): string | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (!TLS_FAILURE.test(code)) return undefined;
  const why = typeof cause?.message === 'string' ? cause.message : code;
  return `the TLS handshake with ${base} failed: ${why} (${code}). If the gateway's certificate is signed by a private CA, trust it with ${names.ca}; if it was issued for another name than the address's host, pass ${names.serverName}`;
}
