/**
 * The Temporal CLI's TLS flags for the gateway: `--tls-ca-path`, `--tls-cert-path`,
 * `--tls-key-path`, `--tls-server-name`, read into the SDK's `tls` option, so that every call of a
 * command (its SDK clients and its own requests) trusts the same CA and presents the same client
 * certificate.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { TLSConfig } from '../../sdk/common/gateway-tls.js';
import { usage } from './errors.js';

/** The flags as commander parses them. */
export interface TlsFlagValues {
  readonly tlsCaPath?: string;
  readonly tlsCertPath?: string;
  readonly tlsKeyPath?: string;
  readonly tlsServerName?: string;
}

/** Adds the TLS flags, each with its environment variable (commander shows the name, never the value). */
export function withTlsOptions(command: Command): Command {
  return command
    .addOption(new Option('--tls-ca-path <file>', "PEM of the CA that signed the gateway's certificate (implies https)").env('LOGBOOK_TLS_CA_PATH'))
    .addOption(new Option('--tls-cert-path <file>', 'PEM client certificate for a gateway that asks for one (mTLS; with --tls-key-path)').env('LOGBOOK_TLS_CERT_PATH'))
    .addOption(new Option('--tls-key-path <file>', "the client certificate's PEM private key").env('LOGBOOK_TLS_KEY_PATH'))
    .addOption(new Option('--tls-server-name <name>', "the name the gateway's certificate is checked against, when not the address's host").env('LOGBOOK_TLS_SERVER_NAME'));
}

/**
 * The SDK's `tls` option the flags ask for, or `undefined` when none is given (an empty variable
 * counts as not given, as for `--api-key`).
 * @throws CliError (usage, exit 2) for a certificate without its key or the reverse, or a file that cannot be read
 */
export function tlsOf(values: TlsFlagValues): TLSConfig | undefined {
  const ca = values.tlsCaPath || undefined;
  const cert = values.tlsCertPath || undefined;
  const key = values.tlsKeyPath || undefined;
  const servername = values.tlsServerName || undefined;
  if (!ca && !cert && !key && !servername) return undefined;
  if (Boolean(cert) !== Boolean(key)) throw usage('--tls-cert-path and --tls-key-path (LOGBOOK_TLS_CERT_PATH, LOGBOOK_TLS_KEY_PATH) go together: a client certificate needs its private key');
  return {
    ...(ca ? { serverRootCACertificate: pem(ca, '--tls-ca-path') } : {}),
    ...(cert && key ? { clientCertPair: { crt: pem(cert, '--tls-cert-path'), key: pem(key, '--tls-key-path') } } : {}),
    ...(servername ? { serverNameOverride: servername } : {}),
  };
}

function pem(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw usage(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
