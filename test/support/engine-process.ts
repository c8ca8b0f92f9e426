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
  /** Resolves with how the process ended, however it ended (a kill, a stop, or a crash of its own). */
  readonly exited: Promise<ProcessEnd>;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<ProcessEnd>;
  /** SIGTERM: graceful stop (SIGKILL after a 20 s grace period). Resolves with how the process ended. */
  stop(): Promise<ProcessEnd>;
}

/**
 * Starts `test/support/engine-main.ts` with the given environment (and extra node flags, such as
 * `--cpu-prof`) and waits for its READY line. `onOutput` sees every chunk of its stdout and stderr
 * as it arrives (a fault harness timestamps and files them), before and after READY.
 */
export async function startEngineProcess(
  env: Record<string, string>,
  timeoutMs = 90_000,
  nodeFlags: readonly string[] = [],
  onOutput?: (chunk: string) => void,
): Promise<EngineProcess> {
  // stdin is a pipe the child watches: if this test process dies, the child exits too.
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', MAIN], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<ProcessEnd>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine process not ready in ${timeoutMs} ms:\n${output.join('')}`)), timeoutMs);
    let ready = false;
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      onOutput?.(chunk.toString());
      // Scanned only until READY: a long-lived process's output would make every later chunk costly.
      const line = ready ? null : /READY (\S+)/.exec(output.join(''));
      if (line) {
        ready = true;
        clearTimeout(timer);
        resolve(line[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      onOutput?.(chunk.toString());
    });
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
  return { pid: child.pid!, endpoint, output, exited, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
