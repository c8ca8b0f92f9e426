/**
 * Two builds side by side, interleaved in one run so that a noisy machine weighs on both alike:
 *
 *   LOGBOOK_KAFKA_BROKERS=… npx tsx test/bench/compare-builds.ts <checkout A> <checkout B> [runs] [--closed 64] [--rounds 4]
 *
 * Each checkout's engine and workers run as a process of their own (its test/support/engine-main.ts)
 * on their own topic prefix. By default this process alternates one W1 workflow on A and one on B
 * (the order swaps every round) and prints both latency medians and the B/A ratio. With `--closed N`
 * it runs W1 closed loops of N callers instead, on A and on B in turn (`--rounds` each, the order
 * swapping every round, one build at a time), and prints each build's completed workflows/s and the
 * CPU its process used per completed workflow (the kernel's accounting, steadier than rates on a
 * shared machine), with the B/A ratios. Both are driven by this checkout's client, so it compares
 * engine (and worker) changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { topicCatalog } from '../../topics/catalog.js';
import { openLog } from '../../topics/log/open-log.js';
import { connectLogClient } from '../../sdk/client/log-client.js';
import type { CommandClient } from '../../sdk/client/command-client.js';
import { parseArgs } from 'node:util';
import { processCpuMs } from './process-cpu.js';
import { percentiles, w1ClosedLoop } from './w1.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { closed: { type: 'string' }, rounds: { type: 'string', default: '4' } } });
const [checkoutA, checkoutB, runsArg] = positionals;
if (!checkoutA || !checkoutB) throw new Error('usage: compare-builds.ts <checkout A> <checkout B> [runs] [--closed N] [--rounds R]');
if (!process.env.LOGBOOK_KAFKA_BROKERS) throw new Error('set LOGBOOK_KAFKA_BROKERS (npm run kafka:start prints it)');
const runs = Number(runsArg ?? 40);
const WARMUP = 5;
const PAYLOAD = 'x'.repeat(200);
const log = await openLog({ kind: 'kafka', brokers: process.env.LOGBOOK_KAFKA_BROKERS.split(',') });
const children: ChildProcess[] = [];
const clients: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];

/** Starts one checkout's engine process and a client on its topics. */
async function build(checkout: string, name: string): Promise<{ client: CommandClient; pid: number }> {
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
  const connected = await connectLogClient(log, topicCatalog({ prefix, shards: 4 }));
  clients.push(connected);
  return { client: connected.client, pid: child.pid! };
}

/** Closed-loop rounds on A and B in turn; prints workflows/s and CPU per workflow of each build. */
async function compareClosedLoops(builds: Record<'A' | 'B', { client: CommandClient; pid: number }>, concurrency: number, rounds: number): Promise<void> {
  const figures: Record<'A' | 'B', { perSecond: number[]; cpuMs: number[] }> = { A: { perSecond: [], cpuMs: [] }, B: { perSecond: [], cpuMs: [] } };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      let cpuBefore = 0;
      let cpuAfter = 0;
      const step = await w1ClosedLoop(builds[side].client, concurrency, 3, 10, {
        onWindowStart: async () => void (cpuBefore = (await processCpuMs(builds[side].pid)) ?? Number.NaN),
        onWindowEnd: async () => void (cpuAfter = (await processCpuMs(builds[side].pid)) ?? Number.NaN),
      });
      figures[side].perSecond.push(step.completedPerSecond);
      figures[side].cpuMs.push((cpuAfter - cpuBefore) / step.completed);
      console.error(`round ${round + 1}/${rounds} ${side}: ${step.completedPerSecond.toFixed(1)} workflows/s, ${((cpuAfter - cpuBefore) / step.completed).toFixed(2)} ms CPU per workflow, p99 ${step.latency.p99.toFixed(0)} ms`);
    }
  }
  const median = (xs: number[]) => percentiles(xs).p50;
  const a = { perSecond: median(figures.A.perSecond), cpuMs: median(figures.A.cpuMs) };
  const b = { perSecond: median(figures.B.perSecond), cpuMs: median(figures.B.cpuMs) };
  console.log(`A ${checkoutA}: ${a.perSecond.toFixed(1)} workflows/s, ${a.cpuMs.toFixed(2)} ms engine-process CPU per workflow (medians of ${rounds} rounds, ${concurrency} callers)`);
  console.log(`B ${checkoutB}: ${b.perSecond.toFixed(1)} workflows/s, ${b.cpuMs.toFixed(2)} ms engine-process CPU per workflow`);
  console.log(`B/A workflows/s ratio ${(b.perSecond / a.perSecond).toFixed(2)}, B/A CPU per workflow ratio ${(b.cpuMs / a.cpuMs).toFixed(2)}`);
}

async function oneWorkflow(client: CommandClient, workflowId: string): Promise<number> {
  const started = performance.now();
  await client.start({ workflowId, workflowType: 'threeSteps', taskQueue: 'bench', args: [PAYLOAD] });
  const reply = await client.send(client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 30_000 });
  if (reply?.executionStatus !== 'Completed') throw new Error(`${workflowId} closed as ${reply?.executionStatus ?? reply?.kind}`);
  return performance.now() - started;
}

try {
  const builds = { A: await build(checkoutA, 'a'), B: await build(checkoutB, 'b') };
  if (values.closed) await compareClosedLoops(builds, Number(values.closed), Number(values.rounds));
  else await compareLatency({ A: builds.A.client, B: builds.B.client });
} finally {
  for (const child of children) child.kill('SIGKILL');
  for (const client of clients) await client.close();
  await log.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
process.exit(0);

/** One workflow on A and one on B in turn; prints both latency medians and the ratio. */
async function compareLatency(clients: Record<'A' | 'B', CommandClient>): Promise<void> {
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
}
