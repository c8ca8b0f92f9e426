/**
 * The options every command that talks to a gateway takes, and what they resolve to.
 * @module
 */
import { Option, type Command } from 'commander';
import { OUTPUT_FORMATS, type OutputFormat } from './output.js';
import { usage } from './errors.js';

/** Where a command's calls go and how it prints. */
export interface CliContext {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8233`. */
  readonly address: string;
  readonly namespace: string;
  readonly output: OutputFormat;
  readonly verbose: boolean;
  /** Prints one result (stdout). */
  readonly print: (text: string) => void;
}

/** Wraps a command's action: it runs with the command's context, options and arguments; the program reports what it throws. */
export type Action = (run: (context: CliContext, options: Record<string, unknown>, ...args: string[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

/** Adds `--address`, `--namespace`, `--output` and `--verbose` to a command that calls a gateway. */
export function withGatewayOptions(command: Command): Command {
  return command
    .addOption(new Option('--address <host:port>', 'the gateway (LOGBOOK_ADDRESS)').default(process.env.LOGBOOK_ADDRESS ?? '127.0.0.1:8233'))
    .addOption(new Option('-n, --namespace <name>', 'the namespace (LOGBOOK_NAMESPACE)').default(process.env.LOGBOOK_NAMESPACE ?? 'default'))
    .addOption(new Option('-o, --output <format>', 'how to print').choices(OUTPUT_FORMATS).default('table'))
    .option('--verbose', 'print the stack of an error', false);
}

/** The context of a command run with {@link withGatewayOptions}. */
export function contextOf(command: Command, print: (text: string) => void): CliContext {
  const options = command.opts<{ address: string; namespace: string; output: OutputFormat; verbose: boolean }>();
  return { address: baseUrl(options.address), namespace: options.namespace, output: options.output, verbose: options.verbose, print };
}

/** `host:port` or an http(s) URL as a base URL. */
export function baseUrl(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw usage(`--address ${JSON.stringify(address)} is not host:port or an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--address ${JSON.stringify(address)}: a gateway is reached over http or https`);
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
