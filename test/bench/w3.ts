import type { CommandClient } from '../../sdk/client/command-client.js';
import { forEachBounded, type BenchHistoryEvent, type HistoryReader } from './engine-probes.js';
import { percentiles, type Percentiles } from './w1.js';

/**
 * Workload W3: workflows that each wait for a number of signals, then complete. The load generator
 * sends every signal as its own command, round-robin across the workflows, with a bounded number
 * in flight; each signal carries its sequence number.
 *
 * What is measured:
 * - **signals/s** = signals accepted (the engine's `Accepted` reply, committed with the
 *   `WorkflowExecutionSignaled` event) ÷ the send window (first send → last acceptance).
 * - **signal-to-observed latency** = from the client's wall clock just before it sent the signal
 *   to the time of the first `WorkflowTaskCompleted` event after the signal's
 *   `WorkflowExecutionSignaled` event in the history. Events that arrive while a workflow task is
 *   in flight are buffered behind it, so that completed task is the one whose activation ran the
 *   signal handler: at that moment the workflow code has seen the signal and what it did with it
 *   is durable. It does not count the time to notice that (the histories are read afterwards).
 *   Client and engine share the host's clock.
 * - **ack latency** = send → `Accepted` reply: what a caller of `signal()` waits for.
 */

/** How to run W3. */
export interface SignalRunOptions {
  readonly client: CommandClient;
  readonly history: HistoryReader;
  readonly workflows: number;
  readonly signalsPerWorkflow: number;
  /** Signals sent and not yet accepted, across all workflows. */
  readonly maxInFlight?: number;
  readonly progressEveryMs?: number;
  readonly log: (line: string) => void;
}

/** What W3 measured. */
export interface SignalRunResult {
  readonly workflows: number;
  readonly signalsPerWorkflow: number;
  readonly maxInFlight: number;
  readonly accepted: number;
  /** Sends answered with something other than `Accepted` and sent again. */
  readonly resent: number;
  readonly sendSeconds: number;
  readonly signalsPerSecond: number;
  readonly observedLatencyMs: Percentiles;
  readonly ackLatencyMs: Percentiles;
  /** Signals per workflow task that delivered any: how much the engine batched them. */
  readonly signalsPerDeliveringTask: number;
  readonly seconds: number;
}

interface Run {
  readonly workflowId: string;
  readonly runId: string;
  /** Client wall clock just before the accepted send of each sequence number. */
  readonly sentAt: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs W3 and returns its figures (see the module comment for what each one means). */
export async function runSignals(options: SignalRunOptions): Promise<SignalRunResult> {
  const { client, history, workflows, signalsPerWorkflow, log } = options;
  const maxInFlight = options.maxInFlight ?? 64;
  const tag = `w3-${Date.now().toString(36)}`;
  const began = Date.now();
  const runs: Run[] = [];
  await forEachBounded(Array.from({ length: workflows }, (_, i) => `${tag}-${i}`), 16, async (workflowId) => {
    const reply = await client.start({ workflowId, workflowType: 'awaitSignals', taskQueue: 'bench', args: [signalsPerWorkflow] });
    if (reply.kind !== 'StartAccepted') throw new Error(`start of ${workflowId}: ${reply.kind} ${reply.failure?.message ?? ''}`);
    runs.push({ workflowId, runId: reply.runId!, sentAt: [] });
  });
  // Signals are measured against workflows already waiting for them, not against their first task.
  await forEachBounded(runs, 16, (run) => untilFirstTaskDone(history, run));
  log(`W3: ${workflows} workflows waiting; sending ${workflows * signalsPerWorkflow} signals, ${maxInFlight} in flight`);

  const sends = Array.from({ length: signalsPerWorkflow * workflows }, (_, i) => ({ run: runs[i % workflows]!, sequence: Math.floor(i / workflows) }));
  const ackLatencies: number[] = [];
  let accepted = 0;
  let resent = 0;
  const sendBegan = Date.now();
  let lastAccepted = sendBegan;
  const progress = setInterval(() => {
    log(`W3: accepted ${accepted}/${sends.length} (${(accepted / ((Date.now() - sendBegan) / 1000)).toFixed(0)}/s)`);
  }, options.progressEveryMs ?? 5_000);
  try {
    await forEachBounded(sends, maxInFlight, async ({ run, sequence }) => {
      for (let attempt = 1; ; attempt++) {
        const sentAt = Date.now();
        const reply = await client.send(client.envelope('default', run.workflowId, signalBody(client, sequence)), { awaitReply: true, timeoutMs: 60_000 });
        if (reply?.kind === 'Accepted') {
          lastAccepted = Date.now();
          run.sentAt[sequence] = sentAt;
          ackLatencies.push(lastAccepted - sentAt);
          accepted++;
          return;
        }
        // A full event buffer (ResourceExhausted) asks the caller to retry later.
        if (attempt === 5) throw new Error(`signal ${sequence} to ${run.workflowId}: ${reply?.kind} ${reply?.failure?.message ?? ''}`);
        resent++;
        await sleep(50 * attempt);
      }
    });
  } finally {
    clearInterval(progress);
  }
  const sendSeconds = (lastAccepted - sendBegan) / 1000;
  log(`W3: ${accepted} signals accepted in ${sendSeconds.toFixed(1)} s; waiting for the workflows to complete`);
  await forEachBounded(runs, workflows, async (run) => {
    const received = await resultOf(client, run.workflowId);
    if (received !== signalsPerWorkflow) throw new Error(`${run.workflowId} completed after ${received} signals, not ${signalsPerWorkflow}`);
  });
  const observed: number[] = [];
  let deliveringTasks = 0;
  await forEachBounded(runs, 16, async (run) => {
    const { seen, tasks } = observedTimes(await history(run.workflowId, run.runId));
    deliveringTasks += tasks;
    for (const [sequence, sentAt] of run.sentAt.entries()) {
      const at = seen.get(sequence);
      if (at === undefined) throw new Error(`signal ${sequence} of ${run.workflowId} is not in its history followed by a completed workflow task`);
      observed.push(at - sentAt);
    }
  });
  return {
    workflows,
    signalsPerWorkflow,
    maxInFlight,
    accepted,
    resent,
    sendSeconds,
    signalsPerSecond: accepted / sendSeconds,
    observedLatencyMs: percentiles(observed),
    ackLatencyMs: percentiles(ackLatencies),
    signalsPerDeliveringTask: accepted / deliveringTasks,
    seconds: (Date.now() - began) / 1000,
  };
}

function signalBody(client: CommandClient, sequence: number) {
  return {
    type: 'SignalWorkflowExecution' as const,
    signalName: 'ping',
    input: [client.dataConverter.toPayload(sequence)],
    identity: 'bench',
    header: {},
    externalInitiator: null,
    childWorkflowOnly: false,
  };
}

async function untilFirstTaskDone(history: HistoryReader, run: Run, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await history(run.workflowId, run.runId)).some((e) => e.attributes.type === 'WorkflowTaskCompleted')) {
    if (Date.now() > deadline) throw new Error(`${run.workflowId} did not complete its first workflow task within ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function resultOf(client: CommandClient, workflowId: string): Promise<number> {
  const reply = await client.send(client.envelope('default', workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), { awaitReply: true, timeoutMs: 120_000 });
  if (reply?.kind !== 'Result' || reply.executionStatus !== 'Completed' || !reply.payload) throw new Error(`${workflowId} closed as ${reply?.executionStatus ?? reply?.kind}`);
  return client.dataConverter.fromPayload<number>(reply.payload);
}

/**
 * Sequence number → time of the first WorkflowTaskCompleted after its WorkflowExecutionSignaled,
 * and how many workflow tasks delivered signals.
 */
function observedTimes(events: readonly BenchHistoryEvent[]): { seen: Map<number, number>; tasks: number } {
  const seen = new Map<number, number>();
  let tasks = 0;
  let unobserved: number[] = [];
  for (const event of events) {
    if (event.attributes.type === 'WorkflowExecutionSignaled') unobserved.push((event.attributes.input as number[])[0]!);
    if (event.attributes.type === 'WorkflowTaskCompleted' && unobserved.length > 0) {
      for (const sequence of unobserved) seen.set(sequence, event.eventTime);
      unobserved = [];
      tasks++;
    }
  }
  return { seen, tasks };
}
