/**
 * The Python environment of the Python examples' tests: a virtual environment in the repository
 * (`.venv-examples`, ignored by git) with `examples/python/requirements.txt` installed, made on
 * first use and remade when the requirements change. Where Python 3 is missing the tests fail,
 * saying so; they never pass without having run Python.
 * @module
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../kafka/assemble.js';

const run = promisify(execFile);

/** The examples' folder. */
export const PYTHON_EXAMPLES = join(PROJECT_ROOT, 'examples', 'python');
const VENV = join(PROJECT_ROOT, '.venv-examples');
const REQUIREMENTS = join(PYTHON_EXAMPLES, 'requirements.txt');
const STAMP = join(VENV, 'requirements.sha256');

/**
 * The path of the environment's `python`, creating the environment when needed.
 * @throws Error naming what to install when no usable Python 3 (with `venv`) is on the machine
 */
export async function examplesPython(): Promise<string> {
  const python = join(VENV, 'bin', 'python');
  const wanted = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  if (existsSync(python) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) return python;
  const system = process.env.LOGBOOK_PYTHON ?? 'python3';
  try {
    await run(system, ['-c', 'import sys, venv; assert sys.version_info >= (3, 9)']);
  } catch (error) {
    throw new Error(`the Python examples' tests need Python 3.9+ with the venv module ('${system}' failed: ${(error as Error).message.split('\n')[0]}); install python3 and python3-venv, or point LOGBOOK_PYTHON at one`);
  }
  rmSync(VENV, { recursive: true, force: true });
  console.log(`creating ${VENV} and installing ${REQUIREMENTS}…`);
  await run(system, ['-m', 'venv', VENV]);
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS], { maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(STAMP, wanted);
  return python;
}
