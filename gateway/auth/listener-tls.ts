/**
 * The gateway's HTTPS listener: `--tls-cert` and `--tls-key` serve the API and UI over TLS;
 * `--tls-client-ca` also asks callers for a client certificate signed by that CA (mTLS). A caller
 * without one may still use a bearer token, so the listener asks but does not insist; the
 * authenticator refuses a certificate the CA did not sign.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';

/** The `--tls-*` flags as `node:util` parseArgs options, with their environment defaults. */
export const LISTENER_TLS_FLAGS = {
  'tls-cert': { type: 'string', default: process.env.LOGBOOK_TLS_CERT ?? '' },
  'tls-key': { type: 'string', default: process.env.LOGBOOK_TLS_KEY ?? '' },
  'tls-client-ca': { type: 'string', default: process.env.LOGBOOK_TLS_CLIENT_CA ?? '' },
} as const;

/** An HTTPS listener's settings. */
export interface ListenerTls {
  readonly serverOptions: ServerOptions;
  /** Whether callers are asked for client certificates. */
  readonly clientCertificates: boolean;
}

/**
 * The HTTPS settings the flags ask for, or `undefined` for plain HTTP.
 * @throws Error naming the flag: a certificate without its key (or the reverse), a client CA
 *   without a certificate, a file that cannot be read
 */
export function listenerTlsFromFlags(values: { 'tls-cert'?: string; 'tls-key'?: string; 'tls-client-ca'?: string }): ListenerTls | undefined {
  const cert = values['tls-cert'] ?? '';
  const key = values['tls-key'] ?? '';
  const clientCa = values['tls-client-ca'] ?? '';
  if (!cert && !key && !clientCa) return undefined;
  if (!cert || !key) throw new Error('--tls-cert and --tls-key (LOGBOOK_TLS_CERT, LOGBOOK_TLS_KEY) go together: the HTTPS listener needs its certificate and its private key');
  return {
    serverOptions: {
      cert: pem(cert, '--tls-cert'),
      key: pem(key, '--tls-key'),
      ...(clientCa ? { ca: pem(clientCa, '--tls-client-ca'), requestCert: true, rejectUnauthorized: false } : {}),
    },
    clientCertificates: clientCa !== '',
  };
}

function pem(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
