import type { CommandClient } from '../../sdk/client/command-client.js';
import { startRequest } from '../../sdk/client/start-options.js';
import type { Command } from '../../topics/schemas/command/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { OfferedWorkflow } from './workflow-outcomes.js';

/**
 * The chaos workload: `workflows` chaos workflows (workflows/chaos-steps.ts) offered at an even
 * rate over the load phase through the Kafka command client (so a killed gateway never loses a
 * start: the commands wait in Kafka), each signalled once it is started and then awaited. Every
 * command is retried as the same command (same request id), which the engine deduplicates.
 * What the load generator sees is only progress; the verdict reads the history topic.
 */

/** The chaos workflow's argument and the result it must return. */
export const CHAOS_PAYLOAD = 'chaos-payload';
const NAMESPACE = 'default';
const REPLY_WAIT_MS = 30_000;
const RESULT_WAIT_MS = 60_000;
const ATTEMPTS = 10;

/** One offered workflow as the load generator tracks it. */
interface Tracked {
  readonly workflowId: string;
  readonly offeredAt: number;
  inKafka: boolean;
  confirmed: boolean;
  signalled: boolean;
  completedAt?: number;
  error?: string;
}

/** Options of {@link ChaosLoad}. */
export interface LoadPlan {
  readonly client: CommandClient;
  readonly tag: string;
  readonly workflows: number;
  readonly begin: number;
  readonly until: number;
  readonly timerMs: number;
}

/** Offers the chaos workflows and follows each to its end (or until stopped). */
export class ChaosLoad {
  private readonly tracked: Tracked[] = [];
  private readonly pending: Promise<void>[] = [];
  private stopped = false;
  /** When Kafka last acknowledged a command of the load generator (epoch ms). */
  private lastAckAt = 0;
  /** Commands sent whose write and reply are not both settled yet. */
  private inFlight = 0;
  /** Errors of sends Kafka did not acknowledge, by message. */
  private readonly sendErrors: Record<string, number> = {};

  constructor(private readonly plan: LoadPlan) {}

  /** Offers every workflow at an even rate; resolves once the last one is offered (not finished). */
  async offer(): Promise<void> {
    const { plan } = this;
    const every = (plan.until - plan.begin) / plan.workflows;
    for (let i = 0; i < plan.workflows && !this.stopped; i++) {
      await sleep(Math.max(0, plan.begin + i * every - Date.now()));
      const w: Tracked = { workflowId: `chaos-${plan.tag}-${i}`, offeredAt: Date.now(), inKafka: false, confirmed: false, signalled: false };
      this.tracked.push(w);
      this.pending.push(this.follow(w).catch((error: Error) => void (w.error = error.message)));
    }
  }

  /** Resolves once every offered workflow completed, or after `ms`. */
  async drain(ms: number, onTick: () => void): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && this.completed() < this.tracked.length) {
      await sleep(Math.min(5_000, deadline - Date.now()));
      onTick();
    }
  }

  stop(): void {
    this.stopped = true;
  }

  offered(): number {
    return this.tracked.length;
  }

  confirmed(): number {
    return this.tracked.filter((w) => w.confirmed).length;
  }

  completed(): number {
    return this.tracked.filter((w) => w.completedAt !== undefined).length;
  }

  /** The workflows for the audit. */
  outcomesInput(): OfferedWorkflow[] {
    return this.tracked.map((w) => ({ workflowId: w.workflowId, inKafka: w.inKafka, confirmed: w.confirmed, signalled: w.signalled }));
  }

  /**
   * What went wrong as the load generator saw it, for the report: the first 20 workflows that
   * failed, the errors of sends Kafka did not acknowledge, and when the starts that never reached
   * Kafka were offered, against the last acknowledgement of any command.
   */
  errors(): Record<string, unknown> {
    const notInKafka = this.tracked.filter((w) => !w.inKafka);
    return {
      workflows: this.tracked.filter((w) => w.error).slice(0, 20).map((w) => `${w.workflowId}: ${w.error}`),
      sendErrors: this.sendErrors,
      notInKafka: notInKafka.length,
      notInKafkaOfferedFrom: notInKafka.length ? new Date(notInKafka[0]!.offeredAt).toISOString() : null,
      notInKafkaOfferedUntil: notInKafka.length ? new Date(notInKafka.at(-1)!.offeredAt).toISOString() : null,
      lastAcknowledgedSend: this.lastAckAt ? new Date(this.lastAckAt).toISOString() : null,
      // Commands whose write or reply had not settled when the run ended.
      commandsUnsettledAtEnd: this.inFlight,
    };
  }

  private async follow(w: Tracked): Promise<void> {
    const { client } = this.plan;
    const body = { type: 'StartWorkflowExecution' as const, ...startRequest({ workflowId: w.workflowId, workflowType: 'chaosSteps', taskQueue: 'chaos', args: [CHAOS_PAYLOAD, this.plan.timerMs] }, client.dataConverter, 'chaos-load') };
    const started = await this.untilAnswered(client.envelope(NAMESPACE, w.workflowId, body), REPLY_WAIT_MS, () => void (w.inKafka = true));
    if (started.kind !== 'StartAccepted' && started.kind !== 'AlreadyStarted') throw new Error(`start answered ${started.kind}: ${started.failure?.message ?? ''}`);
    w.confirmed = true;
    // A random moment within two timer lengths: some signals come before the workflow waits for them, some after.
    await sleep(Math.random() * 2 * this.plan.timerMs);
    const signal = { type: 'SignalWorkflowExecution' as const, signalName: 'proceed', input: [client.dataConverter.toPayload(w.workflowId)], identity: 'chaos-load', header: {}, externalInitiator: null, childWorkflowOnly: false };
    const signalled = await this.untilAnswered(client.envelope(NAMESPACE, w.workflowId, signal), REPLY_WAIT_MS);
    if (signalled.kind === 'Error') throw new Error(`signal answered ${signalled.failure?.code}: ${signalled.failure?.message ?? ''}`);
    w.signalled = true;
    const result = await this.untilAnswered(client.envelope(NAMESPACE, w.workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: false }), RESULT_WAIT_MS, undefined, Infinity);
    const value = result.payload ? client.dataConverter.fromPayload(result.payload) : undefined;
    if (result.executionStatus !== 'Completed' || value !== CHAOS_PAYLOAD) throw new Error(`closed as ${result.executionStatus ?? result.kind} with ${JSON.stringify(value)}`);
    w.completedAt = Date.now();
  }

  /**
   * Sends `command` until the engine answers it: the same command each time, so the engine
   * deduplicates a retry of one it already applied. `onInKafka` runs once Kafka acknowledged a send.
   */
  private async untilAnswered(command: Command, timeoutMs: number, onInKafka?: () => void, attempts = ATTEMPTS): Promise<Reply> {
    let last: unknown;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      this.inFlight++;
      const reply = this.plan.client.send(command, { awaitReply: true, timeoutMs });
      try {
        // The send resolves with the reply; a failed write to Kafka rejects before any wait.
        const answer = await reply;
        this.acknowledged(onInKafka);
        if (answer) return answer;
      } catch (error) {
        last = error;
        if ((error as { code?: string }).code === 'REPLY_TIMEOUT') this.acknowledged(onInKafka);
        else {
          const message = (error as Error).message.slice(0, 160);
          this.sendErrors[message] = (this.sendErrors[message] ?? 0) + 1;
          await sleep(1_000);
        }
      } finally {
        this.inFlight--;
      }
    }
    throw new Error(this.stopped ? 'stopped before an answer' : `no answer after ${attempts} attempts: ${(last as Error)?.message}`);
  }

  /** Kafka acknowledged a send (the reply came, or the wait for it timed out after the write). */
  private acknowledged(onInKafka: (() => void) | undefined): void {
    this.lastAckAt = Date.now();
    onInKafka?.();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
