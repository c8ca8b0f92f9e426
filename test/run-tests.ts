/**
 * The project's test command (`npm test`, `npm run test:unit`).
 *
 *   tsx test/run-tests.ts [--unit] [path filters…] [--test-name-pattern=RE] [other node --test flags]
 *
 * Finds every `*.test.ts` itself (Node 20's `--test` does not expand `**`). Files named
 * `*.kafka.test.ts` need a real broker: unless `--unit` is given or LOGBOOK_KAFKA_BROKERS
 * already names one, a single-node Kafka is assembled, started for the run and always
 * stopped afterwards. Path filters keep files whose repo-relative path contains one of them.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { PROJECT_ROOT, assembleKafka } from './kafka/assemble.js';
import { startKafka, type RunningKafka } from './kafka/broker.js';
import { reapOrphans } from './kafka/processes.js';
import { securedListenerEnv } from './kafka/secured-listener.js';
import { startApicurio, type RunningRegistry } from './registry/apicurio.js';
import { tmpdir } from 'node:os';

const TEST_ROOTS = ['topics', 'processors', 'state-stores', 'sdk', 'gateway', 'examples', 'test'];
/** node --test flags that take their value as the next argument. */
const FLAGS_WITH_VALUE = new Set(['--test-name-pattern', '--test-skip-pattern', '--test-reporter', '--test-reporter-destination']);

const started = Date.now();
/** How long the whole test run may take before it is stopped as hung (CI allows 90 minutes). */
const EXIT_AFTER_TESTS = join(PROJECT_ROOT, 'test', 'support', 'exit-after-tests.ts');
const RUN_DEADLINE_MINUTES = Number(process.env.LOGBOOK_TEST_DEADLINE_MINUTES ?? '40');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Every `*.test.ts` below the test roots, as sorted repo-relative POSIX paths. */
function findTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a root folder that does not exist (yet)
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (entry.name.endsWith('.test.ts')) {
        found.push(relative(PROJECT_ROOT, path).split(sep).join('/'));
      }
    }
  };
  for (const root of TEST_ROOTS) walk(join(PROJECT_ROOT, root));
  return found.sort();
}

function parseArgs(argv: string[]) {
  let unit = false;
  const filters: string[] = [];
  const passthrough: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--unit') unit = true;
    else if (arg.startsWith('-')) {
      passthrough.push(arg);
      const value = argv[i + 1];
      if (FLAGS_WITH_VALUE.has(arg) && value !== undefined) {
        passthrough.push(value);
        i++;
      }
    } else filters.push(arg.replace(/^\.\//, '').split(sep).join('/'));
  }
  return { unit, filters, passthrough };
}


/** Runs a command from node_modules/.bin and resolves with its exit code. */
function runBin(bin: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(join(PROJECT_ROOT, 'node_modules', '.bin', bin), args, { cwd: PROJECT_ROOT, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** Type-checks and lints the whole project before the tests (skipped with path filters or --no-static). */
async function runStaticChecks(): Promise<number> {
  console.log('typecheck (tsc --noEmit)…');
  const tsc = await runBin('tsc', ['--noEmit', '-p', 'tsconfig.json']);
  if (tsc !== 0) return tsc;
  // The web UI's browser code: the DOM's types, not Node's.
  const ui = await runBin('tsc', ['--noEmit', '-p', 'gateway/ui/app/tsconfig.json']);
  if (ui !== 0) return ui;
  console.log('lint (eslint)…');
  return runBin('eslint', ['.']);
}

/** Pass and fail counts from the spec reporter's closing lines (`ℹ pass N`, `ℹ fail N`). */
function specSummary(output: string): { pass: number; fail: number } | undefined {
  const pass = /^ℹ pass (\d+)$/m.exec(output)?.[1];
  const fail = /^ℹ fail (\d+)$/m.exec(output)?.[1];
  return pass === undefined || fail === undefined ? undefined : { pass: Number(pass), fail: Number(fail) };
}

/** Runs `node --test` on the files (output passed through) and resolves with its exit code and summary. */
function runNodeTest(files: string[], passthrough: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; summary: { pass: number; fail: number } | undefined }> {
  const concurrency = process.env.LOGBOOK_TEST_CONCURRENCY ?? '2';
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      // Each file's process exits soon after its tests even if a handle leaked (see the module).
      '--import',
      EXIT_AFTER_TESTS,
      '--test',
      `--test-concurrency=${concurrency}`,
      // Not --test-force-exit: on Node 20 it loses results (see test/support/exit-after-tests.ts).
      '--test-reporter=spec',
      ...passthrough,
      ...files,
    ],
    { cwd: PROJECT_ROOT, env, stdio: ['inherit', 'pipe', 'inherit'] },
  );
  // Pass the output through and keep its tail, where the reporter prints its summary.
  let tail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  // The last resort if a file hangs anyway (a test that never ends): past the deadline the run
  // fails, naming it, instead of hanging CI.
  const deadline = setTimeout(() => {
    console.error(`the tests did not finish within ${RUN_DEADLINE_MINUTES} minutes (LOGBOOK_TEST_DEADLINE_MINUTES): a test may never end; stopping them`);
    child.kill('SIGTERM');
  }, RUN_DEADLINE_MINUTES * 60_000);
  // Ctrl-C reaches the whole process group anyway; a SIGTERM sent to us alone must be forwarded.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('error', (e) => {
      console.error(`could not run node --test: ${e.message}`);
      resolve({ code: 1, summary: undefined });
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 1), summary: specSummary(tail) });
    });
  });
}

async function main(): Promise<number> {
  const { unit, filters, passthrough } = parseArgs(process.argv.slice(2).filter((a) => a !== '--no-static'));
  const noStatic = process.argv.includes('--no-static');
  let summary: { pass: number; fail: number } | undefined;
  let files = findTestFiles();
  if (filters.length > 0) files = files.filter((f) => filters.some((filter) => f.includes(filter)));
  if (unit) files = files.filter((f) => !f.endsWith('.kafka.test.ts'));
  if (files.length === 0) {
    console.log(`no test files${filters.length ? ` match ${filters.join(' ')}` : ''}`);
    return filters.length ? 1 : 0;
  }

  if (filters.length === 0 && !noStatic) {
    const staticCode = await runStaticChecks();
    if (staticCode !== 0) return staticCode;
  }

  const env: NodeJS.ProcessEnv = { ...process.env };
  let kafka: RunningKafka | undefined;
  let registry: RunningRegistry | undefined;
  let registryStart: Promise<RunningRegistry> | undefined;
  let timings = '';
  // Stop the broker on every way out; SIGINT/SIGTERM first let the test child finish.
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => (interrupted = signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // The schema registry starts beside the broker, also beside one the caller runs (it needs no
    // Kafka: in-memory storage); LOGBOOK_TEST_SCHEMA_REGISTRY_URL names a running one instead.
    if (files.some((f) => f.endsWith('.kafka.test.ts')) && !env.LOGBOOK_TEST_SCHEMA_REGISTRY_URL) {
      registryStart = startApicurio({ logFile: join(tmpdir(), `logbook-apicurio-${process.pid}.log`), onProgress: (line) => console.log(line) });
      registryStart.catch(() => undefined);
    }
    if (files.some((f) => f.endsWith('.kafka.test.ts')) && !env.LOGBOOK_KAFKA_BROKERS) {
      const reaped = await reapOrphans();
      if (reaped.length) console.log(`killed ${reaped.length} Kafka process(es) left by an earlier run`);
      const log = (line: string) => console.log(line);
      const assembled = await assembleKafka({ onProgress: log });
      const t0 = Date.now();
      kafka = await startKafka({ libDir: assembled.libDir, secured: true, onProgress: log });
      if (interrupted) return 130;
      const startMs = Date.now() - t0;
      timings = `; Kafka ${kafka.version}: assembly ${seconds(assembled.elapsedMs)}${assembled.cached ? ' (cached)' : ''}, start ${seconds(startMs)}`;
      console.log(`Kafka ${kafka.version} started in ${seconds(startMs)} (assembly ${seconds(assembled.elapsedMs)}${assembled.cached ? ', cached' : ''})`);
      Object.assign(env, {
        LOGBOOK_KAFKA_BROKERS: kafka.brokers.join(','),
        LOGBOOK_KAFKA_VERSION: kafka.version,
        LOGBOOK_KAFKA_LIB: assembled.libDir,
        ...(kafka.secured ? securedListenerEnv(kafka.secured) : {}),
      });
    }
    if (registryStart) {
      registry = await registryStart;
      env.LOGBOOK_TEST_SCHEMA_REGISTRY_URL = registry.url;
    }
    const result = await runNodeTest(files, passthrough, env);
    const code = result.code;
    summary = result.summary;
    return interrupted ? (interrupted === 'SIGINT' ? 130 : 143) : code;
  } finally {
    // Also a registry still starting when the broker failed: its JVM must not outlive the run.
    const runningRegistry = registry ?? (await registryStart?.catch(() => undefined));
    await runningRegistry?.stop().catch((e: unknown) => console.error(`stopping the schema registry failed: ${(e as Error).message}`));
    if (kafka) {
      // Quietly: node's summary lines should stay the last output before ours.
      await kafka.stop().catch((e: unknown) => console.error(`stopping Kafka failed: ${(e as Error).message}`));
    }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    console.log(`total ${seconds(Date.now() - started)}${timings}`);
    // The plain closing line, last, so whoever reads the end of the log sees the verdict.
    if (summary) console.log(`${summary.pass} passed, ${summary.fail} failed`);
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
