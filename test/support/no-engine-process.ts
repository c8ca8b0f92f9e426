/**
 * Child processes that must run no engine code: node with tsx and the hooks of
 * `no-engine-code.mjs`, which fail the process on any import of `processors/`, `gateway/` or
 * `state-stores/` (worker and client processes as users deploy them).
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NO_ENGINE_CODE = fileURLToPath(new URL('./no-engine-code.mjs', import.meta.url));

/** A started child: its process, everything it printed so far, and its exit code once it exits. */
export interface Child {
  readonly process: ChildProcess;
  readonly output: string[];
  readonly exited: Promise<number | null>;
}

/** Every child started here, so a test that fails half-way can stop the ones still running. */
const started = new Set<ChildProcess>();

/** Kills every child started here that still runs (call it in `after`). */
export function killNoEngineProcesses(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}

/** Starts a node process with tsx and the no-engine-code hooks in the repository's root; resolves once its output matches `ready` (at once when null). */
export async function startNoEngineProcess(args: readonly string[], env: Record<string, string>, ready: RegExp | null): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', NO_ENGINE_CODE, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  started.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  if (ready) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`process not ready in 60 s:\n${output.join('')}`));
      }, 60_000);
      const check = () => ready.test(output.join('')) && (clearTimeout(timer), resolve());
      child.stdout!.on('data', check);
      void exited.then((code) => (clearTimeout(timer), reject(new Error(`process exited with ${code} before it was ready:\n${output.join('')}`))));
    });
  }
  return { process: child, output, exited };
}

