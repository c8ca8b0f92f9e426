import { randomUUID } from 'node:crypto';
import type { CommandBody } from '../../topics/schemas/command/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { ReplyListener } from '../../topics/replies/reply-listener.js';
import type { CommandWriter, RunRef, WorkerConnection } from './worker-connection.js';
import { TaskHandedBackError } from './task-handed-back-error.js';
import { writeWithRetry } from './write-retry.js';

/** How long a worker waits for the engine to answer one try of a claim before sending it again. */
const CLAIM_REPLY_TIMEOUT_MS = 10_000;

/**
 * Sends claims that wait for the engine's answer, for tasks that may have run already: a task a
 * previous owner ran and reported, but whose position it had not committed yet, comes back after a
 * crash or a rebalance; its claim is then refused (the attempt is no longer pending) and the task
 * must not run again. First deliveries are claimed without waiting, so this costs nothing on the
 * common path. The replies listener starts on first use.
 */
export class ClaimConfirmer {
  private replies: Promise<ReplyListener> | undefined;

  constructor(
    private readonly connection: WorkerConnection,
    private readonly commands: CommandWriter,
  ) {}

  /**
   * Sends `claim` with a reply address and waits for the engine to apply or refuse it. Unanswered
   * (its shard failing over), the same claim (one request id) is sent again, each try with a reply
   * address of its own, for as long as `signal` allows: running the task without an answer could
   * run an attempt whose result is already recorded. A replies listener that cannot start yet (a
   * broker failing over) is started again the same way. The task is never run unconfirmed: if its
   * earlier attempt ran and was lost, that attempt's own timeout retries it as a new task.
   * @throws TaskHandedBackError when `signal` aborted before the engine answered
   */
  async confirm(run: RunRef, claim: CommandBody, signal: AbortSignal): Promise<'accepted' | 'refused'> {
    const replies = await this.listener(signal, run);
    const requestId = randomUUID();
    for (;;) {
      let answer: Promise<Reply> | undefined;
      await writeWithRetry(async () => {
        const replyTo = { gatewayId: replies.gatewayId, requestId: randomUUID() };
        const expected = replies.expect(replyTo.requestId, CLAIM_REPLY_TIMEOUT_MS);
        // Attach a handler now: if the write fails, the pending answer must not surface as unhandled.
        expected.catch(() => undefined);
        await this.commands.write(run, claim, replyTo, requestId);
        answer = expected;
      }, signal, `the claim of ${run.workflowId}`);
      const reply = await answer!.catch(() => undefined);
      if (reply) return reply.kind === 'Accepted' ? 'accepted' : 'refused';
      if (signal.aborted) throw new TaskHandedBackError(`the claim of ${run.workflowId} was not answered before the task was handed back`);
    }
  }

  async stop(): Promise<void> {
    const replies = await this.replies?.catch(() => undefined);
    await replies?.stop();
  }

  /** The replies listener, started (again, after a pause, while `signal` allows) until it runs. */
  private async listener(signal: AbortSignal, run: RunRef): Promise<ReplyListener> {
    for (let pauseMs = 200; ; pauseMs = Math.min(pauseMs * 2, 5_000)) {
      try {
        return await (this.replies ??= this.listen());
      } catch {
        if (signal.aborted) throw new TaskHandedBackError(`no replies listener could start to confirm the claim of ${run.workflowId} before the task was handed back`);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    }
  }

  private async listen(): Promise<ReplyListener> {
    const { log, catalog, serde } = this.connection;
    const listener = new ReplyListener(log, catalog, serde);
    try {
      await listener.start();
    } catch (error) {
      this.replies = undefined;
      // Leave the group it may have joined, so the next try starts clean.
      await listener.stop().catch(() => undefined);
      throw error;
    }
    return listener;
  }
}
