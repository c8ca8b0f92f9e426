/**
 * W1 one-at-a-time latency of two builds side by side, interleaved in one run so that a noisy
 * machine weighs on both alike:
 *
 *   LOGBOOK_KAFKA_BROKERS=… npx tsx test/bench/compare-builds.ts <checkout A> <checkout B> [runs]
 *
 * Each checkout's engine and workers run as a process of their own (its test/support/engine-main.ts)
 * on their own topic prefix; this process alternates one workflow on A and one on B (the order
 * swaps every round) and prints both medians and the B/A ratio. Both are driven by this checkout's
 * client and run at once, so it compares engine (and worker) changes, under the load of both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import type { CommandClient } from '../../sdk/client/command-client.js';
import { percentiles } from './w1.js';

const [checkoutA, checkoutB, runsArg] = process.argv.slice(2);
if (!checkoutA || !checkoutB) throw new Error('usage: compare-builds.ts <checkout A> <checkout B> [runs]');
if (!process.env.LOGBOOK_KAFKA_BROKERS) throw new Error('set LOGBOOK_KAFKA_BROKERS (npm run kafka:start prints it)');
const runs = Number(runsArg ?? 40);
const WARMUP = 5;
const PAYLOAD = 'x'.repeat(200);
const log = await openLog({ kind: 'kafka', brokers: process.env.LOGBOOK_KAFKA_BROKERS.split(',') });
const children: ChildProcess[] = [];
const dirs: string[] = [];

/** Starts one checkout's engine process and a client on its topics. */
async function build(checkout: string, name: string): Promise<CommandClient> {
  const prefix = `compare_${name}_${Date.now().toString(36)}`;
  const data = await mkdtemp(join(tmpdir(), 'logbook-compare-'));
  dirs.push(data);
  const main = join(resolve(checkout), 'test/support/engine-main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ENGINE_PREFIX: prefix, ENGINE_SHARDS: '4', ENGINE_ROLE: 'both', ENGINE_DATA: data },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('READY') && ready());
    child.once('exit', (code) => fail(new Error(`${checkout}: engine exited with ${code}`)));
  });
  return (await connectLogClient(log, topicCatalog({ prefix, shards: 4 }))).client;
}

async function oneWorkflow(client: CommandClient, workflowId: string): Promise<number> {
  const started = performance.now();
  await client.start({ workflowId, workflowType: 'threeSteps', taskQueue: 'bench', args: [PAYLOAD] });
  const reply = await client.send(client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 30_000 });
  if (reply?.executionStatus !== 'Completed') throw new Error(`${workflowId} closed as ${reply?.executionStatus ?? reply?.kind}`);
  return performance.now() - started;
}

try {
  const clients = { A: await build(checkoutA, 'a'), B: await build(checkoutB, 'b') };
  const samples: Record<'A' | 'B', number[]> = { A: [], B: [] };
  for (let i = 0; i < runs + WARMUP; i++) {
    const order: Array<'A' | 'B'> = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    for (const side of order) {
      const ms = await oneWorkflow(clients[side], `compare-${side}-${Date.now()}-${i}`);
      if (i >= WARMUP) samples[side].push(ms);
    }
    if (i % 10 === 0) console.error(`round ${i + 1}/${runs + WARMUP}`);
  }
  const a = percentiles(samples.A);
  const b = percentiles(samples.B);
  console.log(`A ${checkoutA}: p50 ${a.p50.toFixed(1)} ms, p95 ${a.p95.toFixed(1)} ms`);
  console.log(`B ${checkoutB}: p50 ${b.p50.toFixed(1)} ms, p95 ${b.p95.toFixed(1)} ms`);
  console.log(`B/A p50 ratio ${(b.p50 / a.p50).toFixed(2)} (${runs} workflows each)`);
} finally {
  for (const child of children) child.kill('SIGKILL');
  await log.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
process.exit(0);
