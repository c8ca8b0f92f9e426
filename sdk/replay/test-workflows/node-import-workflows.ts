/**
 * Workflow code that imports a Node module: bundling must refuse it.
 * @module
 */
import { readFileSync } from 'node:fs';

/** Reads a file: not allowed in a workflow. */
export async function readsAFile(): Promise<string> {
  return readFileSync('/etc/hostname', 'utf8');
}
