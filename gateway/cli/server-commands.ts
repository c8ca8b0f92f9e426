/**
 * `logbook server start-dev` (what `npm start` runs), `logbook schemas export`, `logbook ingress`
 * and `logbook replay`: the commands that run engine or SDK code in this process.
 * @module
 */
import { Command } from 'commander';
import { CliError, EXIT } from './errors.js';

/** `server start-dev`: the flags are the dev server's own (see `gateway/dev-server.ts`), passed through. */
export function serverCommand(): Command {
  const server = new Command('server').description('run Logbook');
  server.addCommand(
    new Command('start-dev')
      .description('the dev server: an engine node with its gateway, UI, metrics and the example workers, on the embedded log (or --kafka)')
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .argument('[flags...]', '--port, --data, --kafka, … (see the README, Configuration)')
      .action(async (flags: string[]) => {
        const { DevServerUsageError, runDevServer } = await import('../dev-server.js');
        await runDevServer(flags).catch((error: unknown) => {
          const port = portMessage(error);
          if (port) throw new CliError(port, EXIT.USAGE);
          // A flag's mistake is usage (2); an engine that cannot start (brokers, data) is unavailable (5).
          throw new CliError(error instanceof Error ? error.message : String(error), error instanceof DevServerUsageError ? EXIT.USAGE : EXIT.UNAVAILABLE);
        });
      }),
  );
  return server;
}

/** A busy port, said as a person can act on it. */
function portMessage(error: unknown): string | undefined {
  const e = error as { code?: string; port?: number; address?: string };
  if (e?.code === 'EADDRINUSE') return `port ${e.port ?? ''} on ${e.address ?? 'this host'} is in use (another Logbook?); choose another with --port, or stop the other process`;
  if (e?.code === 'EACCES') return `port ${e.port ?? ''} needs privileges; choose one above 1023 with --port`;
  return undefined;
}

/** `schemas export DIR`: the published contract as .avsc files and index.json. */
export function schemasCommand(): Command {
  const schemas = new Command('schemas').description('the published record schemas');
  schemas.addCommand(
    new Command('export').description('write every schema version as .avsc, and index.json').argument('<directory>').action(async (directory: string) => {
      const { exportSchemas } = await import('../schema-export.js');
      console.log(await exportSchemas(directory));
    }),
  );
  return schemas;
}

/** `ingress list | put FILE | delete NAME`: the ingress API (see `gateway/ingress-cli.ts`). */
export function ingressCommand(): Command {
  return new Command('ingress')
    .description('ingress mappings from business topics: list | put FILE | delete NAME [--address URL]')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { ingressCommand: run } = await import('../ingress-cli.js');
      const code = await run(args);
      if (code !== 0) process.exitCode = code;
    });
}

/** `replay --workflows MODULE HISTORY.json…`: checks exported histories against workflow code (exit 1 if one does not replay). */
export function replayCommand(): Command {
  return new Command('replay')
    .description('replay exported histories (GET …/history?raw=1) against workflow code; exit 1 if one does not replay')
    .requiredOption('--workflows <module>', 'the workflows module')
    .argument('<history...>', 'history files')
    .action(async (histories: string[], options: { workflows: string }) => {
      const { replayFiles } = await import('../../sdk/replay/replay-files.js');
      const code = await replayFiles(options.workflows, histories, (line) => console.log(line));
      if (code !== 0) process.exitCode = code;
    });
}
