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
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { historyFromExport } from './history-export.js';
import { replayHistories } from './replayer.js';

const USAGE = 'usage: replay-cli --workflows <workflows module> <history.json>...';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { workflows: { type: 'string' } }, allowPositionals: true });
  if (values.workflows === undefined || positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const histories: HistoryEvent[][] = [];
  for (const file of positionals) histories.push(historyFromExport(JSON.parse(await readFile(file, 'utf8'))));
  const results = await replayHistories({ workflowsPath: values.workflows }, histories);
  for (const [index, r] of results.entries()) {
    const what = `${r.workflowType} ${r.workflowId} ${r.runId} (${positionals[index]}, ${r.eventCount} events)`;
    console.log(r.ok ? `ok    ${what}` : `FAIL  ${what}: ${r.error?.name}: ${r.error?.message}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} of ${results.length} histories replay`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
    process.exit(2);
  },
);
