/**
 * Failover time: two engine processes share the shards; one is stopped — `kill -9`, or SIGTERM —
 * and the script measures, per shard it owned, the time until the other node serves that shard
 * itself (a read of a workflow in that shard, not forwarded, answers 404 WorkflowNotFound rather
 * than 503), and when the survivor logged the shard started (fenced and restored).
 *
 *   npx tsx test/bench/failover.ts [--runs 3] [--mode kill|term|both] [--shards 8]
 *
 * Uses LOGBOOK_KAFKA_BROKERS when set, otherwise starts (and stops) a local broker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { startKafka, type RunningKafka } from '../kafka/broker.js';
import { startEngineProcess, type EngineProcess } from '../support/engine-process.js';
import { uniqueName, waitFor } from '../support/test-env.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const runs = Number(arg('runs', '3'));
const mode = arg('mode', 'both');
const shards = Number(arg('shards', '8'));

const ownedBy = async (node: EngineProcess): Promise<number[]> =>
  ((await (await fetch(`${node.endpoint}/healthz`)).json()) as { shards: number[] }).shards;

/** A workflow id per shard, so a read of it tells whether the shard is served. */
function probeIds(prefix: string): string[] {
  const catalog = topicCatalog({ prefix, shards });
  const ids = new Map<number, string>();
  for (let i = 0; ids.size < shards; i++) {
    const id = `probe-${i}`;
    if (!ids.has(catalog.shardOf('default', id))) ids.set(catalog.shardOf('default', id), id);
  }
  return Array.from({ length: shards }, (_, shard) => ids.get(shard)!);
}

/** True when the node itself serves the workflow's shard (the header stops it forwarding the read to another owner). */
async function served(node: EngineProcess, id: string): Promise<boolean> {
  const response = await fetch(`${node.endpoint}/api/v1/namespaces/default/workflows/${id}`, {
    headers: { 'x-logbook-forwarded': '1' },
    signal: AbortSignal.timeout(2_000),
  }).catch(() => undefined);
  return response?.status === 404;
}

/** Stops one of two nodes and returns, per shard it owned, ms until the other served it and logged it started. */
async function once(brokers: string[], how: 'kill' | 'term'): Promise<Array<{ shard: number; servedMs: number; startedMs: number | undefined }>> {
  const prefix = uniqueName('failover').replaceAll('-', '_');
  const dirs = [await mkdtemp(join(tmpdir(), 'logbook-fo-')), await mkdtemp(join(tmpdir(), 'logbook-fo-'))];
  const env = (data: string) => ({ LOGBOOK_KAFKA_BROKERS: brokers.join(','), ENGINE_PREFIX: prefix, ENGINE_SHARDS: String(shards), ENGINE_ROLE: 'engine', ENGINE_DATA: data });
  const victim = await startEngineProcess(env(dirs[0]!));
  const survivor = await startEngineProcess(env(dirs[1]!));
  const ids = probeIds(prefix);
  try {
    await waitFor('both nodes to own shards', async () => (await ownedBy(victim)).length > 0 && (await ownedBy(survivor)).length > 0, 90_000);
    const moving = await ownedBy(victim);
    await waitFor('the survivor to serve its own shards', async () => (await Promise.all((await ownedBy(survivor)).map((s) => served(survivor, ids[s]!)))).every(Boolean), 60_000);
    const startedAt = new Map<number, number>();
    const seen = survivor.output.length;
    const stoppedAt = Date.now();
    const stopping = how === 'kill' ? victim.kill9() : victim.stop();
    const servedAt = new Map<number, number>();
    await waitFor('the survivor to serve every moved shard', async () => {
      for (const line of survivor.output.slice(seen).join('').split('\n')) {
        const started = /^SHARD (\d+) started/.exec(line);
        if (started && !startedAt.has(Number(started[1]))) startedAt.set(Number(started[1]), Date.now());
      }
      await Promise.all(moving.filter((s) => !servedAt.has(s)).map(async (s) => (await served(survivor, ids[s]!)) && servedAt.set(s, Date.now())));
      return servedAt.size === moving.length;
    }, 120_000);
    await stopping;
    return moving.map((shard) => ({ shard, servedMs: servedAt.get(shard)! - stoppedAt, startedMs: startedAt.has(shard) ? startedAt.get(shard)! - stoppedAt : undefined }));
  } finally {
    await survivor.stop();
    await victim.kill9();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
}

let kafka: RunningKafka | undefined;
const brokers = process.env.LOGBOOK_KAFKA_BROKERS ? process.env.LOGBOOK_KAFKA_BROKERS.split(',') : (kafka = await startKafka()).brokers;
try {
  for (const how of mode === 'both' ? (['kill', 'term'] as const) : [mode as 'kill' | 'term']) {
    for (let run = 1; run <= runs; run++) {
      const shardsMoved = await once(brokers, how);
      const seconds = (ms: number | undefined) => (ms === undefined ? '?' : (ms / 1000).toFixed(1));
      const worst = Math.max(...shardsMoved.map((s) => s.servedMs));
      const firstStarted = Math.min(...shardsMoved.map((s) => s.startedMs ?? Infinity));
      const detail = shardsMoved.map((s) => `${s.shard}:${seconds(s.startedMs)}/${seconds(s.servedMs)}`).join(' ');
      console.log(
        `${how === 'kill' ? 'kill -9' : 'SIGTERM'} run ${run}: ${shardsMoved.length} shards served again after ${seconds(worst)} s at most, ` +
          `first one started after ${seconds(firstStarted)} s (shard:started/served s ${detail})`,
      );
    }
  }
} finally {
  await kafka?.stop();
}
