/**
 * Replays exported history files against workflow code: one line per history and a summary,
 * what `logbook replay` and `replay-cli.ts` print.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { historyFromExport } from './history-export.js';
import { replayHistories } from './replayer.js';

/**
 * Replays each file (a run's history as `GET …/workflows/{id}/history?raw=1` exports it, or its
 * events as JSON) with the workflows module, printing a line per history.
 * @returns 0 when every history replays, 1 when some do not
 * @throws Error for a file that cannot be read or is not a history
 */
export async function replayFiles(workflowsPath: string, files: readonly string[], print: (line: string) => void): Promise<number> {
  const histories: HistoryEvent[][] = [];
  for (const file of files) histories.push(historyFromExport(JSON.parse(await readFile(file, 'utf8'))));
  const results = await replayHistories({ workflowsPath }, histories);
  for (const [index, r] of results.entries()) {
    const what = `${r.workflowType} ${r.workflowId} ${r.runId} (${files[index]}, ${r.eventCount} events)`;
    print(r.ok ? `ok    ${what}` : `FAIL  ${what}: ${r.error?.name}: ${r.error?.message}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  print(`${results.length - failed} of ${results.length} histories replay`);
  return failed === 0 ? 0 : 1;
}
