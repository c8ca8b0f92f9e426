/**
 * Where golden fixtures live and how they are named: `<record-folder>/fixtures/v<N>-<case>.json`
 * (see `fixture-json.ts`) beside `v<N>-<case>.bin` (the single-object encoding written by schema
 * version N). Used by `write-fixtures.ts` and `fixtures.test.ts` only.
 * @module
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordName } from './schema-catalog.js';

const schemasDir = dirname(fileURLToPath(import.meta.url));

/** One fixture pair on disk. */
export interface FixtureFile {
  readonly record: RecordName;
  readonly version: number;
  readonly caseName: string;
  readonly jsonPath: string;
  readonly binPath: string;
}

/** The fixtures folder of a record: `HistoryEvent` → `…/history-event/fixtures`. */
export function fixturesDir(record: RecordName): string {
  const folder = record.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '-') + c.toLowerCase());
  return join(schemasDir, folder, 'fixtures');
}

/** Paths of one fixture pair. */
export function fixtureFile(record: RecordName, version: number, caseName: string): FixtureFile {
  const base = join(fixturesDir(record), `v${version}-${caseName}`);
  return { record, version, caseName, jsonPath: `${base}.json`, binPath: `${base}.bin` };
}

/** Every fixture pair of a record found on disk (by its `.json` file), sorted by name. */
export function listFixtureFiles(record: RecordName): FixtureFile[] {
  let names: string[];
  try {
    names = readdirSync(fixturesDir(record));
  } catch {
    return [];
  }
  return names
    .map((name) => /^v(\d+)-([a-z0-9-]+)\.json$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => fixtureFile(record, Number(m[1]), m[2] as string))
    .sort((a, b) => a.jsonPath.localeCompare(b.jsonPath));
}
