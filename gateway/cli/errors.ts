/**
 * The CLI's errors and exit codes. Every failure is one line a person can act on; `--verbose`
 * adds the stack.
 *
 * Exit codes: 0 done; 1 the operation ran and its outcome is a failure (a workflow that failed,
 * was cancelled, terminated or timed out; a history that does not replay); 2 bad usage; 3 not
 * found; 4 refused by the gateway (a 4xx naming the rule, a 403 naming the role the API key lacks);
 * 5 the gateway or the codec endpoint could not be reached or failed (5xx; a TLS handshake that
 * refused the gateway's certificate), or the engine could not start; 6 the wait ran out first (a
 * run still open at `--timeout`, a query no worker answered in time); 7 not authenticated (a 401:
 * no `--api-key` or client certificate, or one the gateway refused; a codec endpoint refusing
 * `--codec-token`): the remedy is a credential, not a role; 8 a payload's data subject was
 * erased (`KeyErased` from the codec endpoint): the value is gone by design. A key the codec
 * endpoint's key store does not hold (`KeyNotFound`, 503) is 5, never 8: the value is intact and
 * the endpoint is misconfigured.
 * @module
 */
import { WorkflowClientError } from '../../sdk/client/gateway-call.js';
import { InvalidArgumentError } from '../../sdk/client/option-rules.js';
import { tlsFailureOf } from '../../sdk/common/gateway-tls.js';

export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, NOT_FOUND: 3, REFUSED: 4, UNAVAILABLE: 5, TIMED_OUT: 6, UNAUTHENTICATED: 7, KEY_ERASED: 8 } as const;

/** How a TLS failure's remedy names the CLI's flags (`tls-flags.ts`), in the SDK's `tlsFailureOf`. */
const TLS_FLAG_NAMES = { ca: '--tls-ca-path FILE (LOGBOOK_TLS_CA_PATH)', serverName: '--tls-server-name NAME' };

/** The engine's codes for a wait that ran out, not for a gateway in trouble. */
const WAITS: ReadonlySet<string> = new Set(['REPLY_TIMEOUT', 'QUERY_TIMEOUT']);

/** An error the CLI reports as it is, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A usage mistake: a bad flag value, a missing argument (exit 2). */
export function usage(message: string): CliError {
  return new CliError(message, EXIT.USAGE);
}

/**
 * The exit code and one-line message of any error a command threw; `sentApiKey` and
 * `sentCertificate` say whether the call carried `--api-key` and a client certificate
 * (`--tls-cert-path`), so a 401 says which remedy applies.
 */
export function describeError(error: unknown, address: string, sentApiKey = false, sentCertificate = false): { exitCode: number; message: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof InvalidArgumentError) return { exitCode: EXIT.USAGE, message: error.message };
  if (error instanceof WorkflowClientError) {
    if (WAITS.has(error.code)) return { exitCode: EXIT.TIMED_OUT, message: `${error.code}: ${error.message}` };
    if (error.status === 401) return { exitCode: EXIT.UNAUTHENTICATED, message: unauthenticated(error, address, sentApiKey, sentCertificate) };
    const exitCode = error.status === 404 ? EXIT.NOT_FOUND : error.status >= 500 ? EXIT.UNAVAILABLE : EXIT.REFUSED;
    return { exitCode, message: `${error.code}: ${error.message}` };
  }
  // fetch's own failure: nothing listens at the address, or the name does not resolve.
  if (error instanceof TypeError && /fetch failed/.test(error.message)) {
    const tlsFailure = tlsFailureOf(error, address, TLS_FLAG_NAMES);
    if (tlsFailure) return { exitCode: EXIT.UNAVAILABLE, message: tlsFailure };
    const reason = (error.cause as { code?: string } | undefined)?.code ?? 'no answer';
    return { exitCode: EXIT.UNAVAILABLE, message: `no Logbook gateway answers at ${address} (${reason}); start one with \`logbook server start-dev\` (or \`npm start\`) or pass --address` };
  }
  return { exitCode: EXIT.FAILED, message: error instanceof Error ? error.message : String(error) };
}

function unauthenticated(error: WorkflowClientError, address: string, sentApiKey: boolean, sentCertificate: boolean): string {
  const remedy = sentApiKey
    ? `the gateway at ${address} refused the API key`
    : sentCertificate
      ? `the gateway at ${address} refused the client certificate of --tls-cert-path`
      : /client certificate/.test(error.message)
        ? `the gateway at ${address} requires an API key or a client certificate: pass --api-key <token> (or set LOGBOOK_API_KEY), or --tls-cert-path and --tls-key-path`
        : `the gateway at ${address} requires an API key: pass --api-key <token> (or set LOGBOOK_API_KEY)`;
  return `${error.code}: ${remedy} (${error.message})`;
}
