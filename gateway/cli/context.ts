/**
 * The options every command that talks to a gateway takes, and what they resolve to.
 * @module
 */
import { Option, type Command } from 'commander';
import { OUTPUT_FORMATS, type OutputFormat } from './output.js';
import { usage } from './errors.js';
import { codecEndpoint, plainValues, type PayloadCodecView } from './codec-endpoint.js';
import type { TLSConfig } from '../../sdk/common/gateway-tls.js';
import { tlsOf, withTlsOptions, type TlsFlagValues } from './tls-flags.js';

/** Where a command's calls go and how it prints. */
export interface CliContext {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8233`. */
  readonly address: string;
  readonly namespace: string;
  readonly output: OutputFormat;
  readonly verbose: boolean;
  /** `--api-key`: sent to the gateway as `Authorization: Bearer <key>` on every call. */
  readonly apiKey: string | undefined;
  /** `--tls-*`: the CA trusted, the client certificate presented and the server name checked on every gateway call. */
  readonly tls: TLSConfig | undefined;
  /** The values the command prints and sends, through `--codec-endpoint` when one is given. */
  readonly values: PayloadCodecView;
  /** Prints one result (stdout). */
  readonly print: (text: string) => void;
}

/** Wraps a command's action: it runs with the command's context, options and arguments; the program reports what it throws. */
export type Action = (run: (context: CliContext, options: Record<string, unknown>, ...args: string[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

/**
 * Adds `--address`, `--namespace`, `--output`, `--verbose`, `--api-key`, the `--tls-*` flags and the
 * codec endpoint's `--codec-endpoint` and `--codec-token` to a command that calls a gateway. Secrets
 * are read from the environment through commander's `env`, so `--help` names the variable, never
 * shows its value.
 */
export function withGatewayOptions(command: Command): Command {
  command
    .addOption(new Option('--address <host:port>', 'the gateway, host:port or an http(s) URL (LOGBOOK_ADDRESS)').default(process.env.LOGBOOK_ADDRESS ?? '127.0.0.1:8233'))
    .addOption(new Option('-n, --namespace <name>', 'the namespace (LOGBOOK_NAMESPACE)').default(process.env.LOGBOOK_NAMESPACE ?? 'default'))
    .addOption(new Option('-o, --output <format>', 'how to print').choices(OUTPUT_FORMATS).default('table'))
    .addOption(new Option('--api-key <token>', 'bearer token for a gateway run with --auth').env('LOGBOOK_API_KEY'));
  return withTlsOptions(command)
    .addOption(new Option('--codec-endpoint <url>', 'codec endpoint that decodes the payloads shown and encodes --input, e.g. http://127.0.0.1:8888').env('LOGBOOK_CODEC_ENDPOINT'))
    .addOption(new Option('--codec-token <token>', "the codec endpoint's bearer token").env('LOGBOOK_CODEC_TOKEN'))
    .option('--verbose', 'print the stack of an error', false);
}

/** The context of a command run with {@link withGatewayOptions}. */
export function contextOf(command: Command, print: (text: string) => void): CliContext {
  const options = command.opts<{ address: string; namespace: string; output: OutputFormat; verbose: boolean; apiKey?: string; codecEndpoint?: string; codecToken?: string } & TlsFlagValues>();
  const tls = tlsOf(options);
  return {
    address: baseUrl(options.address, tls !== undefined),
    namespace: options.namespace,
    output: options.output,
    verbose: options.verbose,
    // An empty LOGBOOK_API_KEY is no key, not an empty bearer token the gateway would refuse.
    apiKey: options.apiKey || undefined,
    tls,
    values: options.codecEndpoint ? codecEndpoint(options.codecEndpoint, options.codecToken || undefined) : plainValues,
    print,
  };
}

/** The flag of a command that sends values: the data subject the codec endpoint encrypts them under. */
export function withSubjectOption(command: Command): Command {
  return command.option('--subject <id>', 'encode --input under this data subject (needs --codec-endpoint; default: the endpoint\'s default subject)');
}

/** Each `--input` value read as JSON and, with a codec endpoint, encoded there (under `--subject`). */
export function encodedInputs(c: CliContext, o: Record<string, unknown>): Promise<unknown[]> {
  return c.values.encode(jsonInputs(o.input as string[] | undefined), o.subject as string | undefined);
}

/**
 * `host:port` or an http(s) URL as a base URL; with `tls` (a `--tls-*` flag given) `host:port` is
 * https, as in Temporal's CLI, and an http URL a contradiction.
 */
export function baseUrl(address: string, tls = false): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `${tls ? 'https' : 'http'}://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw usage(`--address ${JSON.stringify(address)} is not host:port or an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--address ${JSON.stringify(address)}: a gateway is reached over http or https`);
  if (tls && url.protocol === 'http:') throw usage(`--address ${JSON.stringify(address)} is plain http but a --tls-* flag is given: pass host:port or an https URL`);
  return url.href.replace(/\/+$/, '');
}

/** Collects a repeatable option's values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Each `--input` value read as JSON (one argument each). */
export function jsonInputs(values: readonly string[] | undefined, flag = '--input'): unknown[] {
  return (values ?? []).map((text) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw usage(`${flag} ${JSON.stringify(text)} is not JSON (${(error as Error).message}); quote strings: ${flag} '"text"'`);
    }
  });
}
