/**
 * The fault harness: `npm run chaos [-- --quick] [--workflows N] [--kill-every S] [--fuzz N] [--keep] …`
 * (see chaos-options.ts for every flag).
 *
 * Starts a three-broker Kafka cluster, two engine nodes and worker processes (chaos-cluster.ts);
 * offers chaos workflows (activity, timer, activity, signal, activity) through Kafka while it
 * kills an engine node every few tens of seconds and one broker once (fault-injector.ts), produces
 * poison records into the command topic (poison-records.ts) and fuzzes every HTTP route
 * (http-fuzz.ts); then audits the history topic, the dead letters and the activity execution logs
 * (chaos-audit.ts), prints progress and a table, writes a JSON result under test/chaos/results/ (with
 * each process's log beside it) and exits non-zero when an invariant failed (chaos-verdict.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import { chaosSettings, type ChaosSettings } from './chaos-options.js';
import { auditRun } from './chaos-audit.js';
import { REPLICATION_FACTOR, startChaosCluster, type ChaosCluster } from './chaos-cluster.js';
import { runPhases } from './chaos-phases.js';
import { reportChaos } from './chaos-report.js';
import { chaosVerdict } from './chaos-verdict.js';
import { FuzzTally } from './fuzz-tally.js';
import type { SentPoison } from './poison-sender.js';
import type { ShardFailure, TimedShardEvent } from './shard-failures.js';

const settings = parseSettings();
const began = Date.now();
const stamp = new Date(began).toISOString().replace(/[:.]/g, '-');
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
const resultFile = join(resultsDir, `${stamp}${settings.quick ? '-quick' : ''}.json`);
const logDir = join(resultsDir, `${stamp}-logs`);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const prefix = `chaos_${began.toString(36)}`;
const catalog = topicCatalog({ prefix, shards: settings.shards, replicationFactor: REPLICATION_FACTOR });
const shardFailures: ShardFailure[] = [];
const shardStarts: TimedShardEvent[] = [];
const crashes: string[] = [];
const poison: SentPoison[] = [];
const fuzz = new FuzzTally();

log(`chaos run: ${JSON.stringify(settings)}; topic prefix ${prefix}; logs in ${logDir}`);
const dataDir = await mkdtemp(join(tmpdir(), 'logbook-chaos-'));
let cluster: ChaosCluster | undefined;
let exitCode = 1;
try {
  cluster = await startChaosCluster({
    prefix, shards: settings.shards, workerProcesses: settings.workerProcesses, dataDir, logDir, log,
    onShardFailure: (f) => void shardFailures.push(f),
    onShardEvent: (e) => void (e.kind === 'started' && shardStarts.push(e)),
    onCrash: (c) => {
      crashes.push(c);
      log(`CRASH ${c}`);
    },
  });
  exitCode = await runAndAudit(cluster);
  if (settings.keep) await keepRunning(cluster);
} finally {
  await cluster?.stop().then(() => log('cluster stopped'), (error: Error) => log(`stopping the cluster: ${error.message}`));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

async function runAndAudit(c: ChaosCluster): Promise<number> {
  const kafkaLog = await openLog({ kind: 'kafka', brokers: c.kafka.brokers, clientId: 'chaos-harness' });
  const { client, close } = await connectLogClient(kafkaLog, catalog);
  const topicsBefore = await c.countTopics();
  const { load, injector } = await runPhases({ settings, cluster: c, catalog, client, tag: began.toString(36), log, poison, fuzz, shardFailures });
  log('auditing the history topic, the dead letters and the activity execution logs');
  const gateway = (c.engines.find((e) => e.up) ?? c.engines[0]!).endpoint!;
  const { figures, details } = await auditRun({
    log: kafkaLog, catalog, offered: load.outcomesInput(), activityLogs: c.activityLogs, injector, poison, fuzz, fuzzPlanned: settings.fuzz,
    shardFailures, shardStarts, crashes, brokers: c.kafka.brokers, gateway,
  });
  const topicsAfter = await c.countTopics();
  await close();
  await kafkaLog.close();
  const verdict = chaosVerdict(figures);
  const result = {
    startedAt: new Date(began).toISOString(),
    durationSeconds: Math.round((Date.now() - began) / 1000),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryBytes: totalmem(), node: process.version },
    versions: { kafka: c.kafka.version, kafkajs: '2.2.4' },
    settings, prefix, logDir,
    passed: verdict.failures.length === 0,
    failures: verdict.failures,
    figures,
    topics: { before: topicsBefore, after: topicsAfter },
    engineStartFailures: Object.fromEntries([...c.engines, ...c.workers].map((p) => [p.name, p.startFailures])),
    loadErrors: load.errors(),
    details,
  };
  await reportChaos(resultFile, result, verdict, `figure (${settings.workflows} workflows, ${settings.shards} shards, ${cpus().length} cores, ${result.durationSeconds} s)`);
  return verdict.failures.length === 0 ? 0 : 1;
}

/** --keep: the cluster stays up for inspection until Ctrl-C. */
async function keepRunning(c: ChaosCluster): Promise<void> {
  log(`--keep: brokers ${c.kafka.brokers.join(',')}; gateways ${c.engines.map((e) => e.endpoint).join(', ')}; topic prefix ${prefix}. Ctrl-C stops everything.`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
}

function parseSettings(): ChaosSettings {
  try {
    return chaosSettings(process.argv.slice(2), Math.floor(Math.random() * 2 ** 31));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}
