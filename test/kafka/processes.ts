/**
 * Lifetime of broker JVMs: spawning, graceful termination, and making sure none outlives
 * the process that started it.
 *
 * Three layers, because no single one covers every way a parent can die:
 * - a `process.on('exit')` hook SIGKILLs brokers still running when Node exits normally;
 * - SIGINT/SIGTERM/SIGHUP hooks do the same when nobody else handles those signals
 *   (Node's default action for them skips 'exit' hooks);
 * - a pid file per broker lets the test runner reap orphans of a parent that was SIGKILLed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { javaBin, resolveCacheDir } from './assemble.js';

/** Contents of one pid file. */
interface PidRecord {
  pid: number;
  /** Pid of the Node process responsible for it; null for a detached developer broker. */
  owner: number | null;
  /** Directory to delete once the broker is gone (its temp data dir), if any. */
  cleanupDir?: string;
}

/** A broker JVM started by this process. */
export interface JavaProcess {
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the JVM is gone. */
  exited: Promise<number | string>;
  /** The exit code or signal once exited, synchronously readable. */
  exitStatus?: number | string;
}

/** Children this process must not leave behind, with the temp dir each one uses. */
const owned = new Map<number, { child: ChildProcess; exited: Promise<unknown>; cleanupDir?: string }>();
let hooksInstalled = false;

/** Directory of pid files; shared by every process using the same cache dir. */
export function pidDir(): string {
  return join(resolveCacheDir(), 'pids');
}

function pidFile(pid: number): string {
  return join(pidDir(), `${pid}.json`);
}

/** True when a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Guards against pid reuse: only signal a pid that is still a Kafka JVM. */
function isKafkaJvm(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka');
  } catch {
    // No /proc (not Linux): trust liveness alone.
    return !existsSync('/proc') && isAlive(pid);
  }
}

function killOwnedNow(): void {
  for (const [pid, { cleanupDir }] of owned) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(pidFile(pid), { force: true });
    if (cleanupDir) rmSync(cleanupDir, { recursive: true, force: true });
  }
  owned.clear();
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killOwnedNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      // Another listener (e.g. the test runner) stops brokers gracefully and exits itself;
      // our 'exit' hook still covers whatever it leaves.
      if (process.listenerCount(signal) > 1) return;
      killOwnedNow();
      process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129);
    });
  }
}

/**
 * Spawns `java <args>` with stdout/stderr appended to `logFile` (a file rather than a pipe,
 * so a broker never blocks on a full pipe nor dies of SIGPIPE when its parent goes away).
 *
 * @param detached true for a developer broker meant to outlive this process
 * @param cleanupDir directory to delete when the owning process dies without stopping it
 */
export function spawnJava(args: string[], opts: { logFile: string; detached?: boolean; cleanupDir?: string }): JavaProcess {
  const fd = openSync(opts.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(javaBin(), args, { stdio: ['ignore', fd, fd], detached: opts.detached ?? false });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${javaBin()} (is Java 17+ installed and on PATH?)`);
  const proc: JavaProcess = { pid, child, exited: Promise.resolve(0) };
  proc.exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      owned.delete(pid);
      proc.exitStatus = code ?? signal ?? 'unknown';
      resolve(proc.exitStatus);
    });
    child.once('error', () => resolve((proc.exitStatus = 'spawn error')));
  });
  mkdirSync(pidDir(), { recursive: true });
  const record: PidRecord = { pid, owner: opts.detached ? null : process.pid, cleanupDir: opts.cleanupDir };
  writeFileSync(pidFile(pid), JSON.stringify(record) + '\n');
  if (opts.detached) {
    child.unref();
  } else {
    owned.set(pid, { child, exited: proc.exited, cleanupDir: opts.cleanupDir });
    installHooks();
  }
  return proc;
}

/** Runs a short-lived java command to completion, returning its exit code. */
export async function runJava(args: string[], logFile: string): Promise<number | string> {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(javaBin(), args, { stdio: ['ignore', fd, fd] });
    return await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
  } finally {
    closeSync(fd);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `p` settles within `ms`; clears its timer so it never holds the event loop open. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  return Promise.race([p.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Stops a broker JVM: SIGTERM (Kafka shuts down cleanly), then SIGKILL after `timeoutMs`;
 * `hard` sends SIGKILL at once (a crash). Works for our own children and for pids
 * recorded by another process (the CLI's detached brokers).
 */
export async function terminate(pid: number, opts: { timeoutMs?: number; hard?: boolean } = {}): Promise<void> {
  const own = owned.get(pid);
  // Our own child stays a zombie (still "alive" to kill -0) until Node reaps it, so for
  // it the 'exit' event is the truth; anything else is polled.
  const gone = async (ms: number): Promise<boolean> => {
    if (own) return within(own.exited, ms);
    const deadline = Date.now() + ms;
    while (isAlive(pid) && Date.now() < deadline) await sleep(100);
    return !isAlive(pid);
  };
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  if (own || isKafkaJvm(pid)) {
    if (opts.hard) signal('SIGKILL');
    else {
      signal('SIGTERM');
      if (!(await gone(opts.timeoutMs ?? 20_000))) signal('SIGKILL');
    }
    if (!(await gone(10_000))) throw new Error(`Kafka process ${pid} did not exit`);
  }
  owned.delete(pid);
  rmSync(pidFile(pid), { force: true });
}

/**
 * Kills brokers whose owning process died without stopping them (e.g. a SIGKILLed test
 * run) and deletes their temp dirs. Detached developer brokers are left alone.
 * @returns the pids that were reaped
 */
export async function reapOrphans(): Promise<number[]> {
  if (!existsSync(pidDir())) return [];
  const reaped: number[] = [];
  for (const name of readdirSync(pidDir())) {
    let record: PidRecord;
    try {
      record = JSON.parse(readFileSync(join(pidDir(), name), 'utf8')) as PidRecord;
    } catch {
      continue;
    }
    if (record.owner === null || isAlive(record.owner)) continue;
    if (isKafkaJvm(record.pid)) {
      await terminate(record.pid, { hard: true });
      reaped.push(record.pid);
    }
    rmSync(join(pidDir(), name), { force: true });
    if (record.cleanupDir) rmSync(record.cleanupDir, { recursive: true, force: true });
  }
  return reaped;
}
