/**
 * The `logbook` command as tests run it: a process of its own (`gateway/cli/bin.mjs`), its output
 * and exit code, and a dev server started with `logbook server start-dev`.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './test-env.js';

/** The CLI's entry, as `bin` in package.json names it. */
export const LOGBOOK_BIN = fileURLToPath(new URL('../../gateway/cli/bin.mjs', import.meta.url));

/** What one run of the CLI printed and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `logbook …args` to its end (at most `timeoutMs`), with `env` over the test's environment. */
export function runLogbookCli(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOGBOOK_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`logbook ${args.join(' ')} did not end in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** A dev server started as the README says (`logbook server start-dev`), on the embedded log. */
export interface DevServer {
  readonly port: number;
  readonly address: string;
  readonly process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `logbook server start-dev --port <free> --data <scratch> …flags` and waits until it runs. */
export async function startDevServer(flags: readonly string[] = []): Promise<DevServer> {
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), 'logbook-dev-'));
  // The embedded log: the broker of the test run must not leak in.
  const child = spawn(process.execPath, [LOGBOOK_BIN, 'server', 'start-dev', '--port', String(port), '--data', data, ...flags], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOGBOOK_KAFKA_BROKERS: '' } });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(data, { recursive: true, force: true });
  };
  try {
    await waitFor('the dev server to be ready', () => output.includes('Logbook is running'), 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { port, address: `127.0.0.1:${port}`, process: child, output: () => output, stop };
}
