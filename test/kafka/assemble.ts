/**
 * Assembles a runnable Apache Kafka broker from Maven Central artifacts.
 *
 * Our machines have Java and Maven but no Docker and no way to download the Apache
 * release tarball, so the broker's jars are pulled through Maven
 * (`dependency:copy-dependencies`) into a per-version cache directory. A marker file
 * makes the second call a cheap no-op.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Newest 3.9.x served by Maven Central when this was written; the conservative default for KafkaJS 2.2.4. */
export const DEFAULT_KAFKA_VERSION = '3.9.2';

/** Repository root, derived from this file's location so it works from any cwd. */
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));

/** Options for {@link assembleKafka}. */
export interface AssembleOptions {
  /** Kafka version; defaults to env `LOGBOOK_KAFKA_VERSION`, else {@link DEFAULT_KAFKA_VERSION}. */
  version?: string;
  /** Cache root; defaults to env `LOGBOOK_KAFKA_CACHE`, else `<project root>/.cache/kafka`. */
  cacheDir?: string;
  /** Receives human-readable progress lines. */
  onProgress?: (line: string) => void;
}

/** Result of {@link assembleKafka}. */
export interface AssembledKafka {
  /** Directory holding every jar the broker needs (use as `-cp '<libDir>/*'`). */
  libDir: string;
  version: string;
  /** True when the jars were already there and nothing was downloaded. */
  cached: boolean;
  elapsedMs: number;
  /** JVM flags that point the broker's logging framework at our quiet config. */
  logJvmArgs: string[];
}

/** Marker written last, so a half-finished assembly is redone rather than trusted. */
const MARKER = 'assembled.json';
/** Rough first-run duration on a 2-core machine with an empty ~/.m2, for the progress line. */
const FIRST_RUN_ESTIMATE_S = 10;

/** The Kafka version selected by options or environment. */
export function resolveKafkaVersion(version?: string): string {
  return version ?? process.env.LOGBOOK_KAFKA_VERSION ?? DEFAULT_KAFKA_VERSION;
}

/** The cache root selected by options or environment. */
export function resolveCacheDir(cacheDir?: string): string {
  return resolve(cacheDir ?? process.env.LOGBOOK_KAFKA_CACHE ?? join(PROJECT_ROOT, '.cache', 'kafka'));
}

/** Kafka 4 switched the broker from log4j 1 (reload4j) to log4j2. */
function isLog4j2(version: string): boolean {
  return Number.parseInt(version.split('.')[0] ?? '0', 10) >= 4;
}

/**
 * JVM logging flags for a version directory (`<cache>/<version>`), i.e. the parent of
 * its lib dir. Exported so a broker started from a bare lib dir can find them.
 */
export function logJvmArgsFor(versionDir: string, version: string): string[] {
  return isLog4j2(version)
    ? [`-Dlog4j2.configurationFile=${join(versionDir, 'log4j2.properties')}`]
    : [`-Dlog4j.configuration=file:${join(versionDir, 'log4j.properties')}`];
}

/** Reads the version recorded next to an assembled lib dir, if any. */
export async function versionOfLibDir(libDir: string): Promise<string | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(libDir, '..', MARKER), 'utf8')) as { version?: string };
    return marker.version;
  } catch {
    return undefined;
  }
}

/** Throws a readable error when a required command is not on PATH. */
export function requireCommand(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  if (r.error) {
    throw new Error(`${what} is required to run a local Kafka broker, but \`${cmd}\` was not found on PATH (${r.error.message}).`);
  }
}

/** The `java` binary: honour JAVA_HOME like Kafka's own scripts do. */
export function javaBin(): string {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

type Coordinates = [group: string, artifact: string, version: string];

function pomXml(version: string, extra: Coordinates[]): string {
  const dep = ([g, a, v]: Coordinates) =>
    `    <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  const deps = [dep(['org.apache.kafka', 'kafka_2.13', version]), ...extra.map(dep)];
  return `<?xml version="1.0" encoding="UTF-8"?>
<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>logbook.test</groupId>
  <artifactId>kafka-broker</artifactId>
  <version>${version}</version>
  <packaging>pom</packaging>
  <dependencies>
${deps.join('\n')}
  </dependencies>
</project>
`;
}

// Root WARN keeps a healthy broker silent; errors still reach the captured console output.
const LOG4J1 = `log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
`;
// shutdownHook=disable: Kafka logs from its own shutdown hook, which log4j2's hook would race.
const LOG4J2 = `status = warn
shutdownHook = disable
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRefs = stdout
rootLogger.appenderRef.stdout.ref = STDOUT
`;

function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`\`${cmd} ${args.join(' ')}\` exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

async function copyDependencies(versionDir: string, libDir: string, version: string, extra: Coordinates[]): Promise<void> {
  await writeFile(join(versionDir, 'pom.xml'), pomXml(version, extra));
  await run(
    'mvn',
    ['-q', '-B', '-f', join(versionDir, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`],
    versionDir,
  );
}

/** The slf4j bridge to add for a log4j2 broker, or undefined when one is already there. */
async function missingLog4j2Binding(libDir: string): Promise<Coordinates | undefined> {
  const jars = await readdir(libDir);
  if (jars.some((j) => /^log4j-slf4j2?-impl-/.test(j))) return undefined;
  const core = jars.map((j) => /^log4j-core-(.+)\.jar$/.exec(j)?.[1]).find(Boolean);
  const slf4j = jars.map((j) => /^slf4j-api-(\d+)\./.exec(j)?.[1]).find(Boolean);
  if (!core || !slf4j) return undefined;
  return ['org.apache.logging.log4j', slf4j === '1' ? 'log4j-slf4j-impl' : 'log4j-slf4j2-impl', core];
}

/** Serialises concurrent assemblies of one version (e.g. two test files on a cold cache). */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, '.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      // A lock older than 15 minutes belongs to a process that died mid-download.
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 15 * 60_000) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/**
 * Downloads (once) the jars for an Apache Kafka broker and writes its logging config.
 * Subsequent calls for the same version and cache dir return immediately with `cached: true`.
 */
export async function assembleKafka(options: AssembleOptions = {}): Promise<AssembledKafka> {
  const started = Date.now();
  const version = resolveKafkaVersion(options.version);
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`Invalid Kafka version "${version}" (expected e.g. 3.9.2)`);
  const versionDir = join(resolveCacheDir(options.cacheDir), version);
  const libDir = join(versionDir, 'lib');
  const result = (cached: boolean): AssembledKafka => ({
    libDir,
    version,
    cached,
    elapsedMs: Date.now() - started,
    logJvmArgs: logJvmArgsFor(versionDir, version),
  });
  if (existsSync(join(versionDir, MARKER))) return result(true);

  await mkdir(versionDir, { recursive: true });
  return withLock(versionDir, async () => {
    // Another process may have finished while we waited for the lock.
    if (existsSync(join(versionDir, MARKER))) return result(true);
    requireCommand('mvn', ['-v'], 'Apache Maven (3.8+)');
    requireCommand(javaBin(), ['-version'], 'Java 17+');
    options.onProgress?.(
      `assembling Apache Kafka ${version} from Maven (first run only, ~${FIRST_RUN_ESTIMATE_S} s)…`,
    );
    const log4j2 = isLog4j2(version);
    await writeFile(join(versionDir, log4j2 ? 'log4j2.properties' : 'log4j.properties'), log4j2 ? LOG4J2 : LOG4J1);
    // Start from an empty lib dir so jars of an interrupted run cannot linger.
    await rm(libDir, { recursive: true, force: true });
    // The 3.x broker POM declares slf4j only; without a binding the broker would log nothing at all.
    const extra: Coordinates[] = log4j2
      ? []
      : [['org.slf4j', 'slf4j-reload4j', '1.7.36'], ['ch.qos.reload4j', 'reload4j', '1.2.25']];
    await copyDependencies(versionDir, libDir, version, extra);
    // 4.x POMs bring log4j-core but not the slf4j -> log4j2 bridge the release tarball ships,
    // so add the bridge matching the resolved log4j-core and slf4j-api (needs a second pass).
    const binding = log4j2 ? await missingLog4j2Binding(libDir) : undefined;
    if (binding) await copyDependencies(versionDir, libDir, version, [binding]);
    await writeFile(join(versionDir, MARKER), JSON.stringify({ version, assembledAt: new Date().toISOString() }) + '\n');
    const res = result(false);
    options.onProgress?.(`assembled Apache Kafka ${version} in ${(res.elapsedMs / 1000).toFixed(1)} s`);
    return res;
  });
}

/** The command-line tools made runnable by {@link assembleKafkaTools}: script name → main class. */
const TOOLS: Record<string, string> = {
  'kafka-console-consumer.sh': 'org.apache.kafka.tools.consumer.ConsoleConsumer',
  'kafka-consumer-groups.sh': 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  'kafka-topics.sh': 'org.apache.kafka.tools.TopicCommand',
};

/** Tools whose main class ships in the broker's own jars (Kafka's core), run from the broker's class path. */
const BROKER_TOOLS: Record<string, string> = {
  'kafka-acls.sh': 'kafka.admin.AclCommand',
};

/** Writes the `bin/` scripts of {@link TOOLS} (the tools' class path) and {@link BROKER_TOOLS} (the broker's). */
async function writeToolScripts(version: string, versionDir: string, toolsDir: string, binDir: string): Promise<void> {
  const log4j1 = join(toolsDir, 'tools-log4j.properties');
  const log4j2 = join(toolsDir, 'tools-log4j2.properties');
  await mkdir(binDir, { recursive: true });
  const logging = `'-Dlog4j.configuration=file:${log4j1}' '-Dlog4j2.configurationFile=${log4j2}'`;
  const scripts = [...Object.entries(TOOLS).map(([script, main]) => [script, main, join(toolsDir, 'lib')] as const), ...Object.entries(BROKER_TOOLS).map(([script, main]) => [script, main, join(versionDir, 'lib')] as const)];
  for (const [script, mainClass, libDir] of scripts) {
    await writeFile(join(binDir, script), `#!/bin/sh\n# Kafka ${version}'s ${script}, from the jars Maven assembled.\nexec "\${JAVA_HOME:+$JAVA_HOME/bin/}java" -Xmx256m ${logging} -cp '${libDir}/*' ${mainClass} "$@"\n`, { mode: 0o755 });
  }
}

/**
 * Downloads (once) Kafka's command-line tools for a version into their own class path (their
 * dependencies must not reach the broker's) and writes `bin/` scripts like the release tarball's,
 * so the README's analyst lines work with the development broker.
 * @returns the `bin` directory
 */
export async function assembleKafkaTools(options: AssembleOptions = {}): Promise<string> {
  const version = resolveKafkaVersion(options.version);
  const versionDir = join(resolveCacheDir(options.cacheDir), version);
  const toolsDir = join(versionDir, 'tools');
  const binDir = join(versionDir, 'bin');
  const marker = join(toolsDir, MARKER);
  const complete = () => existsSync(marker) && Object.keys({ ...TOOLS, ...BROKER_TOOLS }).every((script) => existsSync(join(binDir, script)));
  if (complete()) return binDir;
  await mkdir(toolsDir, { recursive: true });
  return withLock(toolsDir, async () => {
    if (complete()) return binDir;
    // Assembled before a tool was added: only its script is missing.
    if (existsSync(marker)) {
      await writeToolScripts(version, versionDir, toolsDir, binDir);
      return binDir;
    }
    requireCommand('mvn', ['-v'], 'Apache Maven (3.8+)');
    options.onProgress?.(`assembling the Kafka ${version} command-line tools from Maven (first run only)…`);
    const libDir = join(toolsDir, 'lib');
    await rm(libDir, { recursive: true, force: true });
    await copyDependencies(toolsDir, libDir, version, [['org.apache.kafka', 'kafka-tools', version]]);
    // Warnings to stderr, like the tarball's tools-log4j.properties: stdout carries the records.
    const log4j1 = join(toolsDir, 'tools-log4j.properties');
    const log4j2 = join(toolsDir, 'tools-log4j2.properties');
    await writeFile(log4j1, LOG4J1.replace('ConsoleAppender', 'ConsoleAppender\nlog4j.appender.stdout.Target=System.err'));
    await writeFile(log4j2, LOG4J2.replace('appender.stdout.type = Console', 'appender.stdout.type = Console\nappender.stdout.target = SYSTEM_ERR'));
    await writeToolScripts(version, versionDir, toolsDir, binDir);
    await writeFile(marker, JSON.stringify({ version, assembledAt: new Date().toISOString() }) + '\n');
    return binDir;
  });
}
