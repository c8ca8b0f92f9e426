/**
 * The `logbook` command line (`npx logbook …`, `bin` of the package): the Temporal CLI's verbs
 * where they fit — `server start-dev`, `workflow …`, `schedule …`, `namespace …`,
 * `task-queue describe`, `replay` — plus `schemas export` and `ingress`. `--help` on every
 * command; errors are one line (the stack with `--verbose`); exit codes in `errors.ts`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { auditCommand } from './audit-commands.js';
import { codecCommand } from './codec-commands.js';
import { contextOf, type Action } from './context.js';
import { describeError, EXIT } from './errors.js';
import { namespaceCommand } from './namespace-commands.js';
import { scheduleCommand } from './schedule-commands.js';
import { ingressCommand, replayCommand, schemasCommand, serverCommand } from './server-commands.js';
import { taskQueueCommand } from './task-queue-commands.js';
import { workflowCommand } from './workflow-commands.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The program, printing results with `print` and errors with `printError`. */
export function logbookProgram(print: (text: string) => void = (text) => console.log(text), printError: (text: string) => void = (text) => console.error(text)): Command {
  const action: Action = (run) => async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const positionals = args.slice(0, -2).map(String);
    let address = '';
    let sentApiKey = false;
    let sentCertificate = false;
    try {
      const context = contextOf(command, print);
      address = context.address;
      sentApiKey = context.apiKey !== undefined;
      sentCertificate = context.tls?.clientCertPair !== undefined;
      await run(context, command.opts(), ...positionals);
    } catch (error) {
      const { exitCode, message } = describeError(error, address, sentApiKey, sentCertificate);
      printError(`error: ${message}`);
      if (command.opts().verbose && error instanceof Error && error.stack) printError(error.stack);
      process.exitCode = exitCode;
    }
  };
  const program = new Command('logbook')
    .description('Logbook, a durable workflow engine on Kafka: run it, and start, inspect and change its workflows')
    .version(version)
    .showSuggestionAfterError()
    .configureOutput({ writeOut: (text) => print(text.trimEnd()), writeErr: (text) => printError(text.trimEnd()) });
  program.addCommand(serverCommand());
  program.addCommand(workflowCommand(action));
  program.addCommand(scheduleCommand(action));
  program.addCommand(namespaceCommand(action));
  program.addCommand(taskQueueCommand(action));
  program.addCommand(auditCommand(action));
  program.addCommand(codecCommand());
  program.addCommand(replayCommand());
  program.addCommand(schemasCommand());
  program.addCommand(ingressCommand());
  // Parse errors and help are reported through exitOverride (below) on every command.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
  return program;
}

/**
 * Runs the program on `argv` (without `node` and the script); resolves with the exit code. A
 * mistake in the command line is exit 2 with commander's one-line message; `--help` is 0.
 */
export async function runLogbook(argv: readonly string[]): Promise<number> {
  const program = logbookProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.OK;
      // Anything else — an unknown option, a missing argument, a group command (`logbook workflow`)
      // run alone, which prints its help — is a usage mistake.
      return EXIT.USAGE;
    }
    // Errors of commands outside the action wrapper (start-dev, replay, schemas): one line, no stack.
    const { exitCode, message } = describeError(error, '');
    console.error(`error: ${message}`);
    return exitCode;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK;
}
