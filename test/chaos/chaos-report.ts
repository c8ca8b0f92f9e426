import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ChaosVerdict } from './chaos-verdict.js';

/** Writes a chaos run's JSON result and prints its table and the invariants that failed. */
export async function reportChaos(file: string, result: Record<string, unknown>, verdict: ChaosVerdict, heading: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log('');
  console.log(`| ${heading} | value | invariant |`);
  console.log('|---|---|---|');
  for (const row of verdict.rows) console.log(`| ${row.figure} | ${row.value} | ${row.ok === undefined ? '' : row.ok ? 'ok' : 'FAILED'} |`);
  console.log(`\nresult: ${file}`);
  if (verdict.failures.length === 0) {
    console.log('\nevery invariant held');
    return;
  }
  console.error(`\n${verdict.failures.length} invariant(s) failed:`);
  for (const failure of verdict.failures) console.error(`- ${failure}`);
}
