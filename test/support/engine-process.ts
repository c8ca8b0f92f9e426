import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./engine-main.ts', import.meta.url));

/** How a child process ended: its exit code, or the signal that killed it. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** An engine (or worker) node in a child process, for tests that kill processes. */
export interface EngineProcess {
  readonly pid: number;
  /** The node's gateway URL (engine roles). */
  readonly endpoint: string;
  readonly output: string[];
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<ProcessEnd>;
  /** SIGTERM: graceful stop (SIGKILL after a 20 s grace period). Resolves with how the process ended. */
  stop(): Promise<ProcessEnd>;
}

/**
 * Starts `test/support/engine-main.ts` with the given environment (and extra node flags, such as
 * `--cpu-prof`) and waits for its READY line.
 */
export async function startEngineProcess(env: Record<string, string>, timeoutMs = 90_000, nodeFlags: readonly string[] = []): Promise<EngineProcess> {
  // stdin is a pipe the child watches: if this test process dies, the child exits too.
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', MAIN], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<ProcessEnd>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine process not ready in ${timeoutMs} ms:\n${output.join('')}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const ready = /READY (\S+)/.exec(output.join(''));
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine process exited with ${code} before it was ready:\n${output.join('')}`));
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = async (name: NodeJS.Signals) => {
    if (alive()) child.kill(name);
    // A graceful stop that hangs must not hang the test: kill it after a grace period.
    const grace = setTimeout(() => alive() && child.kill('SIGKILL'), 20_000);
    const end = await exited;
    clearTimeout(grace);
    return end;
  };
  return { pid: child.pid!, endpoint, output, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
