import type { CommandClient } from '../../sdk/client/command-client.js';
import { startRequest } from '../../sdk/client/start-options.js';
import type { BenchContext } from './bench-context.js';
import { auditExecutions, type AuditedWorkflow, type AuditEvent, type ExecutionAudit } from './execution-audit.js';
import { longestCompletionGapMs, perSecondTimeline, recoverySeconds, type TimelineSecond } from './recovery-timeline.js';
import { readExecutionLogs } from './workflows/activities.js';

/**
 * Workload W4 (recovery): W1 workflows offered open-loop at a fixed rate; after a warm-up the
 * engine process is killed with SIGKILL and restarted on the same data directory and topics while
 * the load goes on. Measures the per-second completions, the time until throughput recovers (see
 * {@link recoverySeconds}) and audits every workflow afterwards (see execution-audit.ts).
 */

const PAYLOAD = 'x'.repeat(200);
const PROGRESS_EVERY_MS = 3_000;
const HISTORY_FETCHES_AT_ONCE = 8;

/** Options of {@link runRecovery}. */
export interface RecoveryOptions {
  /** Workflows offered per second, before and after the kill. */
  readonly rate: number;
  /** Seconds of load before the kill. */
  readonly warmupSeconds: number;
  /** Seconds of load after the kill. */
  readonly afterKillSeconds: number;
  /** Most seconds to wait, once arrivals stop, for the last results. */
  readonly drainSeconds: number;
}

/** W4's JSON result. Times in seconds are counted from the start of the load. */
export interface RecoveryResult {
  readonly offeredPerSecond: number;
  readonly warmupSeconds: number;
  readonly afterKillSeconds: number;
  readonly killedPid: number;
  readonly restartedPid: number | null;
  readonly killAtSecond: number;
  /** The load's start and the kill in epoch ms, to read the audit's times (epoch ms) against. */
  readonly loadBeganAt: number;
  readonly killedAt: number;
  /** When the new engine process printed READY (null if it never did). */
  readonly restartedAtSecond: number | null;
  /** Seconds from the kill to recovery (null: not within the run); see recovery-timeline.ts. */
  readonly recoverySeconds: number | null;
  readonly recoveredAtSecond: number | null;
  readonly recoveryDefinition: string;
  /** When arrivals stopped. */
  readonly loadEndedAtSecond: number;
  /** The longest stretch without a single completion, from the kill on (ms). */
  readonly longestCompletionGapMs: number;
  readonly offered: number;
  /** Workflows whose correct result reached the load generator before the drain ended. */
  readonly completedSeen: number;
  /** Requests the load generator saw fail (start refused, result timed out, wrong result); the first 20. */
  readonly clientErrors: readonly string[];
  readonly clientErrorCount: number;
  readonly timeline: readonly TimelineSecond[];
  readonly audit: ExecutionAudit;
  /** Lines of the execution log that were not JSON (a kill in the middle of an append would leave one). */
  readonly unreadableExecutionLogLines: number;
}

interface Offered {
  readonly id: string;
  readonly offeredAt: number;
  completedAt?: number;
}

/** Runs W4 on the Kafka backend (the engine must be a separate process with an execution log). */
export async function runRecovery(context: BenchContext, options: RecoveryOptions): Promise<RecoveryResult> {
  const { client, engine, log } = context;
  if (!engine.killAndRestart || !engine.activityLog) throw new Error('W4 needs an engine process it can kill, with an activity execution log (Kafka backend)');
  const tag = `w4-${Date.now().toString(36)}`;
  const offered: Offered[] = [];
  const pending: Promise<void>[] = [];
  const clientErrors: string[] = [];
  const resultTimeoutMs = (options.afterKillSeconds + options.drainSeconds + options.warmupSeconds) * 1000;
  const killedPid = engine.pid;
  let killAt = 0;
  let readyAt: number | undefined;
  let restart: Promise<void> | undefined;
  let restartError: string | undefined;

  const begin = Date.now();
  let progressAt = begin + PROGRESS_EVERY_MS;
  const completedSince = (at: number) => offered.filter((w) => w.completedAt !== undefined && w.completedAt >= at).length;
  while (Date.now() - begin < (options.warmupSeconds + options.afterKillSeconds) * 1000) {
    const now = Date.now();
    if (!restart && now - begin >= options.warmupSeconds * 1000) {
      killAt = now;
      log(`W4: kill -9 of the engine process ${killedPid} at ${((killAt - begin) / 1000).toFixed(1)} s; the load goes on`);
      restart = engine.killAndRestart().then(
        () => {
          readyAt = Date.now();
          log(`W4: new engine process ${engine.pid} ready ${((readyAt - killAt) / 1000).toFixed(1)} s after the kill`);
        },
        (error: Error) => void (restartError = error.message),
      );
    }
    const due = Math.floor(((now - begin) / 1000) * options.rate);
    while (offered.length < due) {
      const workflow: Offered = { id: `${tag}-${offered.length}`, offeredAt: Date.now() };
      offered.push(workflow);
      pending.push(runOne(client, workflow, resultTimeoutMs).catch((error: Error) => void clientErrors.push(`${workflow.id}: ${error.message}`)));
    }
    if (now >= progressAt) {
      progressAt += PROGRESS_EVERY_MS;
      const recent = completedSince(now - PROGRESS_EVERY_MS) / (PROGRESS_EVERY_MS / 1000);
      log(`W4: ${((now - begin) / 1000).toFixed(0)} s, offered ${offered.length}, completed ${completedSince(0)}, last ${PROGRESS_EVERY_MS / 1000} s ${recent.toFixed(1)}/s`);
    }
    await sleep(5);
  }
  const loadEndsAt = Date.now();
  await restart;
  // Without a new engine there is neither recovery nor a gateway to audit through.
  if (restartError) throw new Error(`the engine process did not start again after the kill: ${restartError}`);
  log(`W4: arrivals stopped (${offered.length} offered); waiting up to ${options.drainSeconds} s for the last results`);
  const drained = Promise.all(pending);
  const ticker = setInterval(() => log(`W4: draining, completed ${completedSince(0)}/${offered.length}`), PROGRESS_EVERY_MS);
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise((r) => (drainTimer = setTimeout(r, options.drainSeconds * 1000)))]);
  clearInterval(ticker);
  clearTimeout(drainTimer);

  const completedAt = offered.flatMap((w) => (w.completedAt === undefined ? [] : [w.completedAt]));
  // The timeline covers the arrivals and every result that came after them.
  const seconds = Math.max(options.warmupSeconds + options.afterKillSeconds, Math.ceil((Math.max(begin, ...completedAt) - begin + 1) / 1000));
  const timeline = perSecondTimeline(begin, seconds, offered.map((w) => w.offeredAt), completedAt);
  const recovery = killAt ? recoverySeconds({ killAt, loadEndsAt, ratePerSecond: options.rate, completedAt }) : null;
  const sinceBegin = (at: number) => Math.round((at - begin) / 10) / 100;

  log(`W4: auditing ${offered.length} workflows (histories from the gateway, executions from the activity log)`);
  const histories = await fetchHistories(engine.endpoint, offered.map((w) => w.id));
  const { executions, unreadableLines } = await readExecutionLogs([engine.activityLog]);
  const audit = auditExecutions(histories, executions, PAYLOAD);
  return {
    offeredPerSecond: options.rate,
    warmupSeconds: options.warmupSeconds,
    afterKillSeconds: options.afterKillSeconds,
    killedPid,
    restartedPid: readyAt === undefined ? null : engine.pid,
    killAtSecond: sinceBegin(killAt),
    loadBeganAt: begin,
    killedAt: killAt,
    restartedAtSecond: readyAt === undefined ? null : sinceBegin(readyAt),
    recoverySeconds: recovery,
    recoveredAtSecond: recovery === null ? null : sinceBegin(killAt + recovery * 1000),
    loadEndedAtSecond: sinceBegin(loadEndsAt),
    recoveryDefinition: 'seconds from the kill to the start of the first 3 consecutive 1-s windows (counted from the kill, ending while load is offered) each with ≥ 90 % of the offered rate completed',
    longestCompletionGapMs: killAt ? longestCompletionGapMs(killAt, completedAt) : 0,
    offered: offered.length,
    completedSeen: completedAt.length,
    clientErrors: clientErrors.slice(0, 20),
    clientErrorCount: clientErrors.length,
    timeline,
    audit,
    unreadableExecutionLogLines: unreadableLines,
  };
}

/**
 * Starts one W1 workflow and waits for its result, with timeouts long enough to span the engine's
 * downtime (commands wait in Kafka meanwhile). Sets `completedAt` once the correct result arrives.
 */
async function runOne(client: CommandClient, workflow: Offered, timeoutMs: number): Promise<void> {
  const body = { type: 'StartWorkflowExecution' as const, ...startRequest({ workflowId: workflow.id, workflowType: 'threeSteps', taskQueue: 'bench', args: [PAYLOAD] }, client.dataConverter, 'bench-w4') };
  const started = await client.send(client.envelope('default', workflow.id, body), { awaitReply: true, timeoutMs });
  if (started?.kind !== 'StartAccepted') throw new Error(`start: ${started?.kind} ${started?.failure?.message ?? ''}`);
  const reply = await client.send(client.envelope('default', workflow.id, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs });
  if (reply?.executionStatus !== 'Completed') throw new Error(`closed as ${reply?.executionStatus ?? reply?.kind}`);
  const result = reply.payload ? client.dataConverter.fromPayload(reply.payload) : undefined;
  if (result !== PAYLOAD) throw new Error(`wrong result ${JSON.stringify(result)?.slice(0, 40)}`);
  workflow.completedAt = Date.now();
}

/** Each workflow's history from the gateway (`null` for a workflow it does not know), a few at a time. */
async function fetchHistories(endpoint: string, workflowIds: readonly string[]): Promise<AuditedWorkflow[]> {
  const out: AuditedWorkflow[] = new Array(workflowIds.length);
  let next = 0;
  const fetchOne = async (workflowId: string): Promise<readonly AuditEvent[] | null> => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${endpoint}/api/v1/namespaces/default/workflows/${encodeURIComponent(workflowId)}/history`);
      if (response.status === 404) return null;
      if (response.ok) return ((await response.json()) as { events: AuditEvent[] }).events;
      // 503: a shard is still being restored or moving; anything else is worth a few tries too.
      if (attempt >= 10) throw new Error(`history of ${workflowId}: HTTP ${response.status} ${await response.text()}`);
      await sleep(500 * attempt);
    }
  };
  await Promise.all(
    Array.from({ length: HISTORY_FETCHES_AT_ONCE }, async () => {
      while (next < workflowIds.length) {
        const i = next++;
        out[i] = { workflowId: workflowIds[i]!, events: await fetchOne(workflowIds[i]!) };
      }
    }),
  );
  return out;
}


function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
