import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { avscFiles } from '../topics/schemas/avsc-files.js';

/** Writes the published contract to `directory`: every schema version as .avsc, and index.json; resolves with what it wrote. */
export async function exportSchemas(directory: string): Promise<string> {
  const target = resolve(directory);
  await mkdir(target, { recursive: true });
  const files = avscFiles();
  for (const file of files) await writeFile(join(target, file.name), file.text);
  return `wrote ${files.length - 1} schemas and index.json to ${target}`;
}
