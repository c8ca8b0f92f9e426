/**
 * The benchmark harness: `npm run bench [-- --quick] [--workloads w1,sol,…] [--backend kafka|embedded]
 * [--shards 4] [--size N] [--rates 25,50,100] [--step-seconds 10] [--runs 50] [--concurrency 64]
 * [--workers separate|same] [--profile]`.
 *
 * Starts what it needs (a broker unless LOGBOOK_KAFKA_BROKERS is set; on Kafka the engine as a
 * process of its own, and its workers as another unless `--workers same` puts them in the engine's),
 * runs the chosen workloads (see workloads/index.ts), prints
 * progress and a table, and writes a JSON result (with the machine, versions and settings) under
 * test/bench/results/. `--profile` runs the engine process (Kafka backend) under `--cpu-prof` and
 * writes its CPU profile under test/bench/results/profiles/ (open it in Chrome DevTools);
 * BENCH_NODE_FLAGS (space-separated) passes other node flags to that process, for example an
 * `--import` of a module that counts KafkaJS requests.
 * A chart of each result is written next to it (same name, .svg; see chart/bench-chart.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import * as benchActivities from './workflows/activities.js';
import { startKafka, type RunningKafka } from '../kafka/broker.js';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { startTestEngine } from '../support/test-engine.js';
import { EngineMetrics } from '../../gateway/metrics.js';
import type { BenchContext, BenchEngine, BenchSettings, TableRow } from './bench-context.js';
import { httpHistoryReader, localHistoryReader } from './engine-probes.js';
import { QUICK_WORKLOADS, WORKLOADS } from './workloads/index.js';
import { DEFAULT_CONCURRENCY } from './workloads/w1-closed.js';
import { freePorts } from '../kafka/config.js';
import { benchChart } from './chart/bench-chart.js';
import { renderSvg } from './chart/svg-chart.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    workloads: { type: 'string' },
    backend: { type: 'string', default: 'kafka' },
    shards: { type: 'string', default: '4' },
    size: { type: 'string' },
    rates: { type: 'string' },
    'step-seconds': { type: 'string' },
    runs: { type: 'string' },
    concurrency: { type: 'string' },
    workers: { type: 'string', default: 'separate' },
    profile: { type: 'boolean', default: false },
  },
});
const quick = values.quick!;
if (values.workers !== 'separate' && values.workers !== 'same') throw new Error(`--workers must be separate or same, got ${values.workers}`);
if (values.backend !== 'kafka' && values.backend !== 'embedded') throw new Error(`--backend must be kafka or embedded, got ${values.backend}`);
const known = WORKLOADS.map((w) => w.name);
const chosen = values.workloads?.split(',') ?? (quick ? [...QUICK_WORKLOADS] : known);
for (const name of chosen) if (!known.includes(name)) throw new Error(`unknown workload ${name}; the workloads are ${known.join(', ')}`);
const settings: BenchSettings = {
  backend: values.backend,
  shards: Number(values.shards),
  quick,
  workloads: chosen,
  rates: (values.rates ?? (quick ? '25,50,100,200' : '25,50,100,150,200,300,400,600')).split(',').map(Number),
  ratesGiven: values.rates !== undefined,
  stepSeconds: Number(values['step-seconds'] ?? (quick ? 6 : 20)),
  latencyRuns: Number(values.runs ?? (quick ? 30 : 200)),
  concurrency: Number(values.concurrency ?? DEFAULT_CONCURRENCY),
  workers: values.workers,
  // Small runs finish in well under a second and swing ±25 %; these are long enough to settle.
  speedOfLightRecords: quick ? 60_000 : 200_000,
  ...(values.size ? { size: Number(values.size) } : {}),
};
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const began = Date.now();

let broker: RunningKafka | undefined;
if (settings.backend === 'kafka' && !process.env.LOGBOOK_KAFKA_BROKERS) {
  broker = await startKafka({ onProgress: log });
  process.env.LOGBOOK_KAFKA_BROKERS = broker.brokers.join(',');
}
const brokers = process.env.LOGBOOK_KAFKA_BROKERS?.split(',');
const cleanups: Array<() => Promise<void>> = [];
const result: Record<string, unknown> = {
  startedAt: new Date(began).toISOString(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
  versions: { kafka: broker?.version ?? process.env.LOGBOOK_KAFKA_VERSION ?? 'external', kafkajs: '2.2.4' },
  settings,
};
const rows: TableRow[] = [];
const failures: string[] = [];
try {
  const context = await setUp();
  for (const workload of WORKLOADS.filter((w) => chosen.includes(w.name))) {
    if (!workload.backends.includes(settings.backend)) {
      log(`${workload.name}: skipped, it runs on ${workload.backends.join(' and ')} only`);
      continue;
    }
    log(`${workload.name}: ${workload.description}`);
    try {
      const outcome = await workload.run(context);
      result[workload.name] = outcome.result;
      rows.push(...outcome.rows);
      for (const failure of outcome.failures ?? []) {
        failures.push(`${workload.name}: ${failure}`);
        log(`${workload.name} FAILED: ${failure}`);
      }
    } catch (error) {
      // One failed workload must not lose the figures of the others; the run still exits non-zero.
      failures.push(`${workload.name}: ${(error as Error).stack ?? String(error)}`);
      result[workload.name] = { error: (error as Error).message };
      log(`${workload.name} FAILED: ${(error as Error).message}`);
    }
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await broker?.stop();
}
result.durationSeconds = (Date.now() - began) / 1000;
await report(result);
if (failures.length) {
  console.error(`\n${failures.length} workload(s) failed:\n${failures.join('\n')}`);
  process.exitCode = 1;
}

/** The engine under test and the load generator's client (the engine is a separate process on Kafka). */
async function setUp(): Promise<BenchContext> {
  const data = await mkdtemp(join(tmpdir(), 'logbook-bench-'));
  cleanups.push(() => rm(data, { recursive: true, force: true }));
  const prefix = `bench_${Date.now().toString(36)}`;
  if (settings.backend === 'embedded') {
    const metrics = new EngineMetrics(false);
    const t = await startTestEngine('embedded', {
      shards: settings.shards,
      workers: false,
      prefix,
      engine: { dataDirectory: join(data, 'node'), onBatch: (shard, batch) => metrics.recordBatch(shard, batch) },
      extraWorkers: [{ taskQueue: 'bench', workflowsPath: fileURLToPath(new URL('./workflows/index.ts', import.meta.url)), activities: benchActivities, maxConcurrentWorkflowTasks: 50 }],
    });
    cleanups.push(() => t.stop());
    const engine: BenchEngine = {
      pid: process.pid,
      dataDirectory: join(data, 'node'),
      endpoint: 'http://127.0.0.1:0',
      prefix,
      history: localHistoryReader((workflowId, runId) => t.engine.history('default', workflowId, runId), t.engine.dataConverter),
      metrics: () => metrics.registry.metrics(),
    };
    // One process holds the engine, its workers and the load generator.
    return { settings, client: t.engine.client, engine, log, results: result, cpuRoles: () => ({ all: [process.pid] }) };
  }
  const dataDirectory = join(data, 'node');
  // Outside the data directory: the execution log is the benchmark's, not the engine's state.
  const activityLog = join(data, 'activity-executions.jsonl');
  const separate = settings.workers === 'separate';
  // A fixed port: the workers' history fetcher keeps its gateway when W4 restarts the engine.
  const [port] = await freePorts(1);
  const common = { LOGBOOK_KAFKA_BROKERS: brokers!.join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(settings.shards), BENCH_ACTIVITY_LOG: activityLog };
  const env = { ...common, ENGINE_ROLE: separate ? 'engine' : 'both', ENGINE_DATA: dataDirectory, ENGINE_PORT: String(port) };
  log(`starting the engine${separate ? ', and its workers in a process of their own' : ' and its workers in one process'}`);
  const profileDir = fileURLToPath(new URL('./results/profiles/', import.meta.url));
  const nodeFlags = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : process.env.BENCH_NODE_FLAGS?.split(' ') ?? [];
  let process_: EngineProcess = await startEngineProcess(env, undefined, nodeFlags);
  cleanups.push(async () => void (await process_.stop()));
  const workers = separate ? await startEngineProcess({ ...common, ENGINE_ROLE: 'workers', ENGINE_WORKER_QUEUES: 'bench', ENGINE_WORKER_GATEWAY: process_.endpoint }, undefined, nodeFlags) : undefined;
  if (workers) cleanups.push(async () => void (await workers.stop()));
  const engine: BenchEngine = {
    get pid() {
      return process_.pid;
    },
    get endpoint() {
      return process_.endpoint;
    },
    dataDirectory,
    prefix,
    activityLog,
    history: (workflowId, runId) => httpHistoryReader(process_.endpoint)(workflowId, runId),
    async metrics() {
      const response = await fetch(`${process_.endpoint}/metrics`);
      return response.text();
    },
    async killAndRestart() {
      await process_.kill9();
      process_ = await startEngineProcess(env, undefined, nodeFlags);
    },
  };
  const kafkaLog = await openLog({ kind: 'kafka', brokers: brokers! });
  cleanups.push(() => kafkaLog.close());
  const { client, close } = await connectLogClient(kafkaLog, topicCatalog({ prefix, shards: settings.shards }));
  cleanups.push(close);
  const brokerPids = broker ? broker.pids : (process.env.BENCH_BROKER_PIDS?.split(',').map(Number) ?? []);
  const cpuRoles = () => ({ engine: [process_.pid], ...(workers ? { workers: [workers.pid] } : {}), ...(brokerPids.length ? { broker: brokerPids } : {}), client: [process.pid] });
  return { settings, client, engine, brokers, log, results: result, cpuRoles };
}

/** Writes the JSON result and its chart, and prints the table. */
async function report(r: Record<string, unknown>): Promise<void> {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${new Date(began).toISOString().replace(/[:.]/g, '-')}-${settings.backend}${quick ? '-quick' : ''}.json`);
  await writeFile(file, `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(file.replace(/\.json$/, '.svg'), renderSvg(benchChart(r)));
  console.log('');
  console.log(`| figure (${settings.backend}, ${settings.shards} shards, ${cpus().length} cores) | value |`);
  console.log('|---|---|');
  for (const row of rows) console.log(`| ${row.figure} | ${row.value} |`);
  console.log(`| run time | ${(r.durationSeconds as number).toFixed(0)} s |`);
  console.log(`\nresult: ${file} (chart: ${file.replace(/\.json$/, '.svg')})`);
}
