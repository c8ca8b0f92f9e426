import { Agent, request } from 'node:http';
import type { ChaosProcess } from './chaos-processes.js';
import { HANG_SLACK_MS, WAIT_CAP_MS, type FuzzAnswer, type FuzzTally } from './fuzz-tally.js';
import { fuzzRequest, type FuzzRequest } from './http-fuzz.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Sends the fuzz's requests to the engine nodes that are up, at an even rate over the load phase
 * with a bound on requests in flight, over plain `node:http` (so hostile paths and methods go out
 * exactly as generated), and gives up on each at its own wait (capped) plus the hang slack.
 */

/** Options of {@link runFuzz}. */
export interface FuzzPlan {
  readonly planned: number;
  readonly random: SeededRandom;
  readonly engines: readonly ChaosProcess[];
  readonly begin: number;
  /** The rate is `planned` over `begin..until`; requests not sent by then go on at the same rate. */
  readonly until: number;
  /** No request is sent after this (epoch ms). */
  readonly deadline: number;
  readonly concurrency: number;
  readonly tally: FuzzTally;
  readonly isStopped: () => boolean;
}

const BODY_SAMPLE_BYTES = 600;

/** Sends the planned requests; resolves once each was answered or given up. */
export async function runFuzz(plan: FuzzPlan): Promise<void> {
  if (plan.planned === 0) return;
  const agent = new Agent({ keepAlive: true, maxSockets: plan.concurrency });
  const every = (plan.until - plan.begin) / plan.planned;
  const inFlight = new Set<Promise<void>>();
  try {
    for (let i = 0; i < plan.planned; i++) {
      await sleep(Math.max(0, plan.begin + i * every - Date.now()));
      while (inFlight.size >= plan.concurrency) await Promise.race(inFlight);
      let target = pickTarget(plan);
      while (!target && !plan.isStopped() && Date.now() < plan.deadline) {
        await sleep(200);
        target = pickTarget(plan);
      }
      if (!target || plan.isStopped() || Date.now() >= plan.deadline) break;
      const sent = send(agent, target, fuzzRequest(plan.random)).then((answer) => plan.tally.add(answer));
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
  }
}

function pickTarget(plan: FuzzPlan): ChaosProcess | undefined {
  const up = plan.engines.filter((e) => e.up);
  return up.length ? plan.random.pick(up) : undefined;
}

/** One request; never rejects. */
function send(agent: Agent, target: ChaosProcess, fuzz: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(target.endpoint!);
  const sentAt = Date.now();
  const giveUpAfter = Math.min(fuzz.ownWaitMs, WAIT_CAP_MS) + HANG_SLACK_MS + 500;
  const base = { route: fuzz.route, method: fuzz.method, path: fuzz.path.slice(0, 300), ownWaitMs: fuzz.ownWaitMs, node: target.name, sentAt };
  const killedMeanwhile = () => target.lastKilledAt >= sentAt - 1_000;
  return new Promise<FuzzAnswer>((resolve) => {
    let settled = false;
    const done = (answer: Partial<FuzzAnswer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...base, elapsedMs: Date.now() - sentAt, ...answer });
    };
    const headers = { ...fuzz.headers, ...(fuzz.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(fuzz.body)) }) };
    let req;
    try {
      req = request({ agent, host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < BODY_SAMPLE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, ...retryAfterOf(res.headers['retry-after']), bodySample: Buffer.concat(chunks).toString('utf8').slice(0, BODY_SAMPLE_BYTES) }));
        res.on('error', (error) => done({ status: res.statusCode ?? 0, bodySample: `(body cut: ${error.message})` }));
      });
    } catch (error) {
      // node:http refuses some paths and headers outright: the request never left, which is the client's doing.
      resolve({ ...base, elapsedMs: 0, status: 0, bodySample: `(not sent: ${(error as Error).message})` });
      return;
    }
    const timer = setTimeout(() => {
      done({ timedOut: true, targetKilled: killedMeanwhile() });
      req.destroy();
    }, giveUpAfter);
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message, targetKilled: killedMeanwhile() }));
    req.end(fuzz.body);
  });
}

function retryAfterOf(value: string | string[] | undefined): { retryAfter?: string } {
  if (value === undefined) return {};
  return { retryAfter: Array.isArray(value) ? value.join(',') : value };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
