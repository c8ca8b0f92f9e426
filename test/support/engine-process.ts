import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./engine-main.ts', import.meta.url));

/** An engine (or worker) node in a child process, for tests that kill processes. */
export interface EngineProcess {
  readonly pid: number;
  /** The node's gateway URL (engine roles). */
  readonly endpoint: string;
  readonly output: string[];
  /** How the process ended: its exit code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  /** SIGTERM: graceful stop. */
  stop(): Promise<void>;
}

/** Starts `test/support/engine-main.ts` with the given environment and waits for its READY line. */
export async function startEngineProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<EngineProcess> {
  // stdin is a pipe the child watches: if this test process dies, the child exits too.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
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
    await exited;
    clearTimeout(grace);
  };
  return { pid: child.pid!, endpoint, output, exited, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
