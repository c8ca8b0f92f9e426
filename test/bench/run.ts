/**
 * The benchmark harness: `npm run bench [-- --quick] [--backend kafka|embedded] [--shards 4]
 * [--rates 25,50,100] [--step-seconds 10] [--runs 50]`.
 *
 * Starts what it needs (a broker unless LOGBOOK_KAFKA_BROKERS is set; on Kafka the engine and its
 * workers as a separate process), runs W1 latency, the W1 arrival-rate sweep and the Kafka
 * speed-of-light loop, prints progress and a table, and writes a JSON result (with the machine,
 * versions and settings) under test/bench/results/.
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
import { startEngineProcess } from '../support/engine-process.js';
import { startTestEngine } from '../support/test-engine.js';
import { w1Latency, w1Rate, type RateStep } from './w1.js';
import { runSpeedOfLight } from './speed-of-light.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    backend: { type: 'string', default: 'kafka' },
    shards: { type: 'string', default: '4' },
    rates: { type: 'string' },
    'step-seconds': { type: 'string' },
    runs: { type: 'string' },
  },
});
const quick = values.quick!;
const settings = {
  backend: values.backend as 'kafka' | 'embedded',
  shards: Number(values.shards),
  rates: (values.rates ?? (quick ? '25,50,100,200' : '25,50,100,150,200,300,400,600')).split(',').map(Number),
  stepSeconds: Number(values['step-seconds'] ?? (quick ? 6 : 20)),
  latencyRuns: Number(values.runs ?? (quick ? 30 : 200)),
  // Small runs finish in well under a second and swing ±25 %; these are long enough to settle.
  speedOfLightRecords: quick ? 60_000 : 200_000,
};
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const began = Date.now();

let broker: RunningKafka | undefined;
if (settings.backend === 'kafka' && !process.env.LOGBOOK_KAFKA_BROKERS) {
  broker = await startKafka({ onProgress: log });
  process.env.LOGBOOK_KAFKA_BROKERS = broker.brokers.join(',');
}
const cleanups: Array<() => Promise<void>> = [];
const result: Record<string, unknown> = {
  startedAt: new Date(began).toISOString(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version, platform: process.platform },
  versions: { kafka: broker?.version ?? process.env.LOGBOOK_KAFKA_VERSION ?? 'external', kafkajs: '2.2.4' },
  settings,
};
try {
  const client = await connectClient();
  log(`W1 latency: ${settings.latencyRuns} workflows one at a time`);
  result.w1Latency = await w1Latency(client, settings.latencyRuns, log);
  const sweep: RateStep[] = [];
  for (const rate of settings.rates) {
    log(`W1 throughput: ${rate} workflows/s offered for ${settings.stepSeconds} s`);
    const step = await w1Rate(client, rate, settings.stepSeconds, settings.stepSeconds * 2);
    sweep.push(step);
    log(`  completed ${step.completed}/${step.started} (${step.completedPerSecond.toFixed(1)}/s), p99 ${step.latency.p99.toFixed(0)} ms, kept up: ${step.keptUp}`);
    if (!step.keptUp) break;
  }
  result.w1Throughput = { sweep, bestKeptUpPerSecond: Math.max(0, ...sweep.filter((s) => s.keptUp).map((s) => s.completedPerSecond)) };
  if (settings.backend === 'kafka') {
    log(`speed of light: ${settings.speedOfLightRecords} records through a bare kafkajs transactional loop`);
    result.speedOfLight = await runSpeedOfLight({ brokers: process.env.LOGBOOK_KAFKA_BROKERS!.split(','), partitions: settings.shards, records: settings.speedOfLightRecords, onProgress: log });
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await broker?.stop();
}
result.durationSeconds = (Date.now() - began) / 1000;
await report(result);

/** The load generator's client, and the engine it talks to (a separate process on Kafka). */
async function connectClient() {
  if (settings.backend === 'embedded') {
    const t = await startTestEngine('embedded', {
      shards: settings.shards,
      workers: false,
      extraWorkers: [{ taskQueue: 'bench', workflowsPath: fileURLToPath(new URL('./workflows/three-steps.ts', import.meta.url)), activities: benchActivities, maxConcurrentWorkflowTasks: 50 }],
    });
    cleanups.push(() => t.stop());
    return t.engine.client;
  }
  const prefix = `bench_${Date.now().toString(36)}`;
  const data = await mkdtemp(join(tmpdir(), 'logbook-bench-'));
  cleanups.push(() => rm(data, { recursive: true, force: true }));
  log('starting the engine and its workers (separate process)');
  const engine = await startEngineProcess({ LOGBOOK_KAFKA_BROKERS: process.env.LOGBOOK_KAFKA_BROKERS!, ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(settings.shards), ENGINE_ROLE: 'both', ENGINE_DATA: data });
  cleanups.push(() => engine.stop());
  const kafkaLog = await openLog({ kind: 'kafka', brokers: process.env.LOGBOOK_KAFKA_BROKERS!.split(',') });
  cleanups.push(() => kafkaLog.close());
  const { client, close } = await connectLogClient(kafkaLog, topicCatalog({ prefix, shards: settings.shards }));
  cleanups.push(close);
  return client;
}

/** Writes the JSON result and prints the table. */
async function report(r: Record<string, unknown>): Promise<void> {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${new Date(began).toISOString().replace(/[:.]/g, '-')}-${settings.backend}${quick ? '-quick' : ''}.json`);
  await writeFile(file, `${JSON.stringify(r, null, 2)}\n`);
  const lat = r.w1Latency as { p50: number; p95: number; p99: number } | undefined;
  const thr = r.w1Throughput as { bestKeptUpPerSecond: number } | undefined;
  const sol = r.speedOfLight as { recordsPerSecond: number; transactionsPerSecond: number } | undefined;
  console.log('');
  console.log(`| figure (${settings.backend}, ${settings.shards} shards, ${cpus().length} cores) | value |`);
  console.log('|---|---|');
  if (lat) console.log(`| W1 latency p50 / p95 / p99 (one at a time) | ${lat.p50.toFixed(0)} / ${lat.p95.toFixed(0)} / ${lat.p99.toFixed(0)} ms |`);
  if (thr) console.log(`| W1 throughput (highest rate kept up, p99 < 1 s) | ${thr.bestKeptUpPerSecond.toFixed(1)} workflows/s |`);
  if (sol) console.log(`| speed of light (bare kafkajs loop) | ${sol.recordsPerSecond.toFixed(0)} records/s, ${sol.transactionsPerSecond.toFixed(1)} transactions/s |`);
  console.log(`| run time | ${(r.durationSeconds as number).toFixed(0)} s |`);
  console.log(`\nresult: ${file}`);
}
