import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folders are the architecture: these rules keep each dependency behind the interface that
 * owns it, and the history state machine pure.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_FOLDERS = ['topics', 'processors', 'state-stores', 'sdk', 'gateway', 'examples', 'test'];

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'fixtures') await walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts')) files.push(relative(root, path).split(sep).join('/'));
    }
  };
  for (const folder of SOURCE_FOLDERS) await walk(join(root, folder));
  return files;
}

/** Module specifiers imported by a TypeScript source (static and dynamic imports). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((m[1] ?? m[2] ?? m[3])!);
  }
  return found;
}

/** Packages that must each be imported only from the listed places. */
const OWNERS: ReadonlyArray<{ pkg: RegExp; allowed: (file: string) => boolean; why: string }> = [
  {
    pkg: /^kafkajs(\/|$)/,
    allowed: (f) => f.startsWith('topics/log/kafka/') || f.startsWith('test/'),
    why: 'kafkajs lives behind the log interface in topics/log/kafka (tests may play external Kafka clients)',
  },
  { pkg: /^classic-level$/, allowed: (f) => f === 'state-stores/kv-store.ts', why: 'classic-level is wrapped by state-stores/kv-store.ts' },
  { pkg: /^express$/, allowed: (f) => f.startsWith('gateway/'), why: 'express is used only by the gateway' },
];

/** What the pure history state machine may not touch. */
const IMPURE = [/^node:/, /^(fs|net|http|https|child_process|crypto|timers|os|worker_threads)$/, /^kafkajs/, /^classic-level$/, /^express$/];
/** What the state machine may import: itself, the pure contract types, the validation rules and cron expressions. */
const PURE_TARGETS = ['processors/history/', 'topics/schemas/', 'topics/payload/', 'topics/errors', 'topics/validation/', 'topics/cron/'];
/** What the validation rules may import: themselves and the contract types (the clients, the gateway and the state machine all use them). */
const VALIDATION_TARGETS = ['topics/validation/', 'topics/schemas/', 'topics/errors'];
const IMPURE_CALLS = /\b(Date\.now|new Date\(\s*\)|Math\.random|setTimeout|setInterval|performance\.now|process\.)/;

/**
 * Which folders each folder's code may import (its own always): the contract depends on nothing,
 * the engine on the contract and the stores, the SDK on the contract alone (a worker or client
 * process loads no engine code), and the gateway assembles them all. Tests may import anything.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  topics: [],
  'state-stores': ['topics'],
  processors: ['topics', 'state-stores'],
  sdk: ['topics'],
  examples: ['sdk', 'topics'],
  gateway: ['topics', 'state-stores', 'processors', 'sdk', 'examples'],
};
/** Single files a folder may import against the rule above, each with the reason. */
const DIRECTION_EXCEPTIONS: ReadonlyArray<{ from: string; to: string; why: string }> = [
  { from: 'topics/log/embedded/', to: 'state-stores/kv-store', why: 'the embedded log keeps its partitions in the LevelDB wrapper' },
];

/** The package's own entry points (`logbook/client` → `sdk/client/index.ts`), so imports by package name obey the rule too. */
const PACKAGE_ENTRIES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string> }).exports).map(([entry, target]) => [
    posix.join('logbook', entry),
    posix.normalize(target),
  ]),
);

/** The repository path an import names, or undefined for a package outside it. */
function importTarget(file: string, spec: string): string | undefined {
  if (spec.startsWith('.')) return posix.join(posix.dirname(file), spec);
  return PACKAGE_ENTRIES[spec];
}

function directionViolations(file: string, source: string): string[] {
  const folder = file.split('/')[0]!;
  const allowed = MAY_IMPORT[folder];
  if (!allowed || file.endsWith('.test.ts')) return [];
  const problems: string[] = [];
  for (const spec of importsOf(source)) {
    const target = importTarget(file, spec);
    if (target === undefined) continue;
    const targetFolder = target.split('/')[0]!;
    if (targetFolder === folder || allowed.includes(targetFolder)) continue;
    if (DIRECTION_EXCEPTIONS.some((e) => file.startsWith(e.from) && target.replace(/\.js$/, '') === e.to)) continue;
    const may = allowed.length ? allowed.map((f) => `${f}/`).join(', ') : 'nothing outside itself';
    problems.push(`${file} imports ${target}: ${folder}/ may import ${may}`);
  }
  return problems;
}

function violations(file: string, source: string): string[] {
  const problems: string[] = directionViolations(file, source);
  for (const spec of importsOf(source)) {
    for (const owner of OWNERS) {
      if (owner.pkg.test(spec) && !owner.allowed(file)) problems.push(`${file} imports ${spec}: ${owner.why}`);
    }
    // Tests of the state machine may use the test runner and the serde; the machine itself may not.
    if (file.startsWith('processors/history/') && !file.endsWith('.test.ts')) {
      if (IMPURE.some((p) => p.test(spec))) problems.push(`${file} imports ${spec}: the state machine does no I/O`);
      const target = spec.startsWith('.') ? posix.join(posix.dirname(file), spec) : spec;
      if (spec.startsWith('.') && !PURE_TARGETS.some((t) => target.startsWith(t))) {
        problems.push(`${file} imports ${target}: the state machine depends only on ${PURE_TARGETS.join(', ')}`);
      }
    }
  }
  if (file.startsWith('topics/validation/') && !file.endsWith('.test.ts')) {
    for (const spec of importsOf(source)) {
      const target = spec.startsWith('.') ? posix.join(posix.dirname(file), spec) : spec;
      if (!spec.startsWith('.') || !VALIDATION_TARGETS.some((t) => target.startsWith(t))) {
        problems.push(`${file} imports ${target}: the validation rules depend only on ${VALIDATION_TARGETS.join(', ')}`);
      }
    }
  }
  if ((file.startsWith('processors/history/') || file.startsWith('topics/validation/')) && !file.endsWith('.test.ts')) {
    const stripped = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const call = IMPURE_CALLS.exec(stripped);
    if (call) problems.push(`${file} uses ${call[1]}: the state machine takes time and randomness as inputs`);
  }
  return problems;
}

test('each of kafkajs, classic-level and express is imported only behind the interface that owns it, imports point from the SDK and the engine to the contract and never back, and the state machine and the validation rules are pure', async () => {
  const problems: string[] = [];
  for (const file of await sourceFiles()) problems.push(...violations(file, await readFile(join(root, file), 'utf8')));
  assert.deepEqual(problems, []);
});

test('the architecture rules catch an engine file importing kafkajs, a state machine reading the clock and validation rules doing I/O', () => {
  assert.equal(violations('processors/shard.ts', "import { Kafka } from 'kafkajs';").length, 1);
  assert.equal(violations('processors/history/apply.ts', 'const t = Date.now();').length, 1);
  assert.equal(violations('processors/history/apply.ts', "import { readFile } from 'node:fs';").length, 1);
  assert.equal(violations('processors/history/apply.ts', "import { ShardStore } from '../../state-stores/shard-store.js';").length, 1);
  assert.equal(violations('processors/history/apply.ts', "import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';").length, 0);
  assert.equal(violations('topics/log/kafka/kafka-log.ts', "import { Kafka } from 'kafkajs';").length, 0);
  assert.equal(violations('processors/history/apply.ts', "import { namespaceProblem } from '../../topics/validation/index.js';").length, 0);
  assert.equal(violations('topics/validation/rules.ts', "import { readFile } from 'node:fs';").length, 1);
  assert.equal(violations('topics/validation/rules.ts', "import type { Log } from '../log/log.js';").length, 1);
  assert.equal(violations('topics/validation/rules.ts', "import type { Command } from '../schemas/command/index.js';").length, 0);
});

test('the architecture rules catch the SDK importing the engine or the gateway (by path or by package entry), and the contract importing the engine', () => {
  assert.deepEqual(violations('sdk/worker/activity-worker.ts', "import { NamespaceRegistry } from '../../processors/namespaces/namespace-registry.js';"), [
    'sdk/worker/activity-worker.ts imports processors/namespaces/namespace-registry.js: sdk/ may import topics/',
  ]);
  assert.equal(violations('sdk/client/log-client.ts', "import { startEngine } from '../../gateway/engine.js';").length, 1);
  assert.equal(violations('sdk/client/log-client.ts', "import { ReplyListener } from '../../topics/replies/reply-listener.js';").length, 0);
  assert.equal(violations('topics/catalog.ts', "import { ShardProcessor } from '../processors/shard-processor.js';").length, 1);
  assert.equal(violations('processors/shard.ts', "import { Worker } from '../sdk/worker/worker.js';").length, 1);
  assert.equal(violations('topics/log/embedded/embedded-log.ts', "import { openKvStore } from '../../../state-stores/kv-store.js';").length, 0);
  assert.equal(violations('gateway/engine.ts', "import { Worker } from '../sdk/worker/worker.js';").length, 0);
  assert.equal(violations('sdk/worker/worker.test.ts', "import { startEngine } from '../../gateway/engine.js';").length, 0);
  assert.deepEqual(violations('sdk/client/compat/client.ts', "import { TestWorkflowEnvironment } from 'logbook/testing';"), [
    'sdk/client/compat/client.ts imports gateway/testing/index.ts: sdk/ may import topics/',
  ]);
  assert.equal(violations('examples/order/workflows.ts', "import { sleep } from 'logbook/workflow';").length, 0);
});
