import type { CommandClient } from '../../sdk/client/command-client.js';
import { directoryBytes, forEachBounded, processMemory, settledDirectoryBytes, type HistoryReader, type ProcessMemory } from './engine-probes.js';
import { peakWaiting, phasesAt, readTimings, untilArmed, type TimerPhase, type TimerRun } from './w2-timings.js';
import { Completion, PhaseEstimator, sleep } from './w2-tracking.js';
import { percentiles, type Percentiles } from './w1.js';

/**
 * Workload W2: many workflows that each sleep on one durable timer (a random 1–30 s, chosen by the
 * load generator and passed as input, plus an optional common hold), then run one activity.
 *
 * Without a hold, the first timers fire while later workflows are still being started, so how many
 * wait at once is bounded by the start rate × the mean delay. With a hold longer than starting
 * takes, every workflow is started and waiting before the first timer is due: that is the run that
 * tells the cost of N waiting workflows and how punctually their timers fire.
 *
 * What is measured, per workflow, once every run has closed:
 * - **due time** = the engine's `TimerStarted` event time + the timer's duration: exactly the
 *   expiry the engine armed (`processors/history/user-timers.ts`). The delay is relative to the
 *   moment the timer was armed, so however long starting 20,000 workflows takes, no timer is due
 *   before it exists.
 * - **continuation lateness** (the figure held against the target) = the worker's wall clock when
 *   the activity after the timer began − the due time. It covers the engine firing the timer, the
 *   workflow task that resumes the code and the activity task it schedules: everything between
 *   "due" and "the code after `sleep` is doing work". Engine and worker share the host's clock.
 * - **fire lateness** = the `TimerFired` event time − the due time: the engine's share of it.
 * - **arm latency** = `TimerStarted` − `WorkflowExecutionStarted` event times: how long a new
 *   workflow took to get its first workflow task done and its timer armed.
 *
 * Engine memory is the VmRSS of the engine process; on the Kafka backend that process also hosts
 * the benchmark's workers and their sticky cache of workflow sandboxes, on the embedded backend it
 * is the load generator's own process.
 *
 * Progress lines every few seconds give started and completed counts (exact) and how many of the
 * open runs are not yet armed, waiting or fired (estimated from a sample of 16 histories). The
 * load generator asks for each result when it expects the timer due; an overloaded engine may take
 * long to answer, so the run has no deadline but fails when workflows are overdue and none has
 * completed for two minutes.
 *
 * State-store bytes are the size on disk of the engine's data directory when every workflow has
 * been started and the last ones have armed their timers, minus the size before the run (once
 * earlier compactions have settled), divided by the number of workflows. Workflows whose timers
 * already fired by then are counted too (their history is longer than a waiting one's, so this
 * over- rather than under-states the cost of a waiting workflow); how many were waiting at that
 * moment is read from the histories.
 */

/** How to run W2. */
export interface TimerRunOptions {
  readonly client: CommandClient;
  readonly history: HistoryReader;
  /** The engine process (memory) and its data directory (store size). */
  readonly engine: { readonly pid: number; readonly dataDirectory: string };
  readonly workflows: number;
  /** Bounds of the random part of each delay. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Added to every delay (default 0). */
  readonly holdMs?: number;
  /** Starts in flight at once (default 200: more in flight, bigger shard transactions). */
  readonly startConcurrency?: number;
  /**
   * Measure the store (default true). Only meaningful on a store where nothing else was written
   * just before: LevelDB compacting earlier writes shrinks it while this run grows it.
   */
  readonly measureStore?: boolean;
  /** The run fails when workflows are overdue and none has completed for this long (default 120 s). */
  readonly stallMs?: number;
  readonly progressEveryMs?: number;
  readonly log: (line: string) => void;
}

/** What W2 measured. */
export interface TimerRunResult {
  readonly workflows: number;
  readonly delayMs: { readonly hold: number; readonly min: number; readonly max: number };
  readonly start: { readonly seconds: number; readonly startsPerSecond: number; readonly concurrency: number };
  /** Lateness after the due time, in ms (see the module comment). */
  readonly lateness: { readonly continuation: Percentiles; readonly fire: Percentiles };
  readonly armLatencyMs: Percentiles;
  /** Most timers armed and not yet fired at one instant (from the histories). */
  readonly peakWaiting: number;
  /** The moment the store and memory were measured: every workflow started, the last ones armed. */
  readonly atMeasurement: { readonly secondsAfterFirstStart: number } & Record<TimerPhase, number>;
  /** Null when not measured (see {@link TimerRunOptions.measureStore}). */
  readonly store: { readonly bytesBefore: number; readonly bytesAtMeasurement: number; readonly bytesAfter: number; readonly bytesPerWorkflow: number } | null;
  readonly engineMemory: { readonly before: ProcessMemory; readonly atMeasurement: ProcessMemory; readonly after: ProcessMemory };
  readonly seconds: number;
}

const MiB = 1024 * 1024;
/** The longest wait for the last workflows to arm their timers, when other runs still complete. */
const ARM_TIMEOUT_MS = 1_800_000;
/** How long the load generator waits for one result: the stall rule ends a stuck run long before. */
const RESULT_TIMEOUT_MS = 3_600_000;

/** Runs W2 and returns its figures (see the module comment for what each one means). */
export async function runTimers(options: TimerRunOptions): Promise<TimerRunResult> {
  const { client, history, engine, workflows, log } = options;
  const holdMs = options.holdMs ?? 0;
  const concurrency = options.startConcurrency ?? 200;
  const tag = `w2-${Date.now().toString(36)}`;
  const measureStore = options.measureStore ?? true;
  const bytesBefore = measureStore ? await settledDirectoryBytes(engine.dataDirectory) : 0;
  const memoryBefore = await processMemory(engine.pid);
  const began = Date.now();
  const runs: TimerRun[] = [];
  const completion = new Completion(options.stallMs ?? 120_000);
  let startSeconds: number | undefined;

  const phases = new PhaseEstimator(history);
  const progress = setInterval(() => {
    const open = runs.filter((r) => r.continuedAt === undefined);
    phases.refresh(open);
    const rate = runs.length / (startSeconds ?? (Date.now() - began) / 1000);
    const counts = `started ${runs.length}/${workflows} (${rate.toFixed(0)}/s), completed ${completion.completed}; of the ${open.length} open, ${phases.describe(open.length)}`;
    void processMemory(engine.pid).then(({ rssBytes }) => log(`W2: ${counts}; engine RSS ${(rssBytes / MiB).toFixed(0)} MiB`), () => undefined);
  }, options.progressEveryMs ?? 5_000);
  try {
    const delays = Array.from({ length: workflows }, () => holdMs + options.minDelayMs + Math.floor(Math.random() * (options.maxDelayMs - options.minDelayMs + 1)));
    await forEachBounded(delays, concurrency, async (delayMs, i) => {
      const workflowId = `${tag}-${i}`;
      const reply = await client.start({ workflowId, workflowType: 'sleepThenStep', taskQueue: 'bench', args: [delayMs] });
      if (reply.kind !== 'StartAccepted') throw new Error(`start of ${workflowId}: ${reply.kind} ${reply.failure?.message ?? ''}`);
      const run: TimerRun = { workflowId, runId: reply.runId!, delayMs };
      runs.push(run);
      // Ask for the result once it should be there: a client that waits, without parking 20,000
      // result waiters in the engine's state from the start.
      completion.expect(delayMs, async () => {
        await sleep(delayMs);
        run.continuedAt = await awaitResult(client, workflowId);
      });
    });
    startSeconds = (Date.now() - began) / 1000;
    log(`W2: ${workflows} started in ${startSeconds.toFixed(1)} s (${(workflows / startSeconds).toFixed(0)}/s); waiting for the last ones to arm their timers`);
    await untilArmed(history, runs.slice(-Math.min(20, runs.length)), () => completion.check(), ARM_TIMEOUT_MS);
    const measuredAt = Date.now();
    const bytesAtMeasurement = measureStore ? await directoryBytes(engine.dataDirectory) : 0;
    const memoryAtMeasurement = await processMemory(engine.pid);
    const grown = measureStore ? `store +${((bytesAtMeasurement - bytesBefore) / MiB).toFixed(1)} MiB, ` : '';
    log(`W2: ${grown}engine RSS ${(memoryAtMeasurement.rssBytes / MiB).toFixed(0)} MiB; waiting for every timer`);
    await completion.all();
    const bytesAfter = measureStore ? await directoryBytes(engine.dataDirectory) : 0;
    const memoryAfter = await processMemory(engine.pid);
    clearInterval(progress);
    log(`W2: ${workflows} completed; reading their histories`);
    const timings = await readTimings(history, runs);
    return {
      workflows,
      delayMs: { hold: holdMs, min: options.minDelayMs, max: options.maxDelayMs },
      start: { seconds: startSeconds, startsPerSecond: workflows / startSeconds, concurrency },
      lateness: {
        continuation: percentiles(timings.map((t) => t.continuedAt! - t.due)),
        fire: percentiles(timings.map((t) => t.firedAt - t.due)),
      },
      armLatencyMs: percentiles(timings.map((t) => t.armedAt - t.startedAt)),
      peakWaiting: peakWaiting(timings),
      atMeasurement: { secondsAfterFirstStart: (measuredAt - began) / 1000, ...phasesAt(timings, measuredAt) },
      store: measureStore ? { bytesBefore, bytesAtMeasurement, bytesAfter, bytesPerWorkflow: (bytesAtMeasurement - bytesBefore) / workflows } : null,
      engineMemory: { before: memoryBefore, atMeasurement: memoryAtMeasurement, after: memoryAfter },
      seconds: (Date.now() - began) / 1000,
    };
  } finally {
    clearInterval(progress);
  }
}

/** Waits for the run's result; resolves with the activity's wall clock (the workflow's result). */
async function awaitResult(client: CommandClient, workflowId: string): Promise<number> {
  const command = client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false });
  const reply = await client.send(command, { awaitReply: true, timeoutMs: RESULT_TIMEOUT_MS });
  if (reply?.kind !== 'Result' || reply.executionStatus !== 'Completed' || !reply.payload) {
    throw new Error(`${workflowId} closed as ${reply?.executionStatus ?? reply?.kind}`);
  }
  return client.dataConverter.fromPayload<number>(reply.payload);
}
