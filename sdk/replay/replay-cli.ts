/**
 * Replays exported histories against workflow code, for CI: one line per history, exit code 1 if
 * any does not replay (a non-determinism names the event, the recorded event and the command).
 *
 *   npx tsx sdk/replay/replay-cli.ts --workflows src/workflows.ts histories/*.json
 *
 * Each file is one run's history as exported by `GET …/workflows/{id}/history?raw=1` (or the
 * events as JSON). Exit codes: 0 all replay, 1 some do not, 2 bad usage or unreadable input.
 * @module
 */
import { parseArgs } from 'node:util';
import { replayFiles } from './replay-files.js';

const USAGE = 'usage: replay-cli --workflows <workflows module> <history.json>...';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { workflows: { type: 'string' } }, allowPositionals: true });
  if (values.workflows === undefined || positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  return replayFiles(values.workflows, positionals, (line) => console.log(line));
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
    process.exit(2);
  },
);
