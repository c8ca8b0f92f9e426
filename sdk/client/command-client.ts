import { randomUUID } from 'node:crypto';
import type { TopicCatalog } from '../../topics/catalog.js';
import { workflowKey } from '../../topics/catalog.js';
import type { Log, Producer } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { Command, CommandBody } from '../../topics/schemas/command/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { assertValid, commandProblem, firstProblem, identifierProblem, namespaceProblem, optionalIdentifierProblem, waitProblem } from '../../topics/validation/index.js';
import { commandCodec } from '../../topics/serde/index.js';
import { ReplyTimeoutError, type ReplyListener } from '../../topics/replies/reply-listener.js';
import { QuerySender, type QueryOptions } from './query-sender.js';
import type { RunLocator } from './query-target.js';
import type { StartOptions } from './start-options.js';
import { startRequest } from './start-options.js';

/** Sends commands to the command topic and, when asked, waits for the engine's reply. */
export interface CommandSender {
  send(command: Command, options?: { awaitReply?: boolean; timeoutMs?: number }): Promise<Reply | undefined>;
}

/** Options of a {@link CommandClient}. */
export interface CommandClientOptions {
  /** Written in commands as the caller's identity; default `client-<pid>`. */
  readonly identity?: string;
  /** Reads run states for queries (the engine's, or a gateway's); without it `query` is refused. */
  readonly locateRun?: RunLocator;
}

/**
 * Talks to the engine through Kafka (or the embedded log): commands go to the command topic with
 * an idempotent, non-transactional producer (a read_committed processor never waits behind it),
 * keyed `ns/workflowId`; replies come back on the replies topic to this client's listener. Queries
 * skip the command topic and go to the workers of the run's task queue (see {@link QuerySender}).
 * The gateway uses it, and so can any service that runs next to Kafka.
 */
export class CommandClient implements CommandSender {
  private producer: Producer | undefined;
  private readonly identity: string;
  private readonly queries: QuerySender;

  constructor(
    private readonly log: Log,
    private readonly catalog: TopicCatalog,
    private readonly serde: Serde,
    private readonly replies: ReplyListener,
    readonly dataConverter: DataConverter = defaultDataConverter,
    options: CommandClientOptions = {},
  ) {
    this.identity = options.identity ?? `client-${process.pid}`;
    this.queries = new QuerySender(log, catalog, serde, replies, dataConverter, options.locateRun);
  }

  /**
   * Writes one command; with `awaitReply`, resolves with the engine's answer (within `timeoutMs`,
   * default 30 s, at most 1 h).
   * @throws InvalidArgumentError before anything is written, for a command that breaks a rule of
   *   `topics/validation` (a namespace or task queue that cannot be part of a topic name, a bad id
   *   or name, a duration past 100 years) or a wait longer than 1 h
   */
  async send(command: Command, options: { awaitReply?: boolean; timeoutMs?: number } = {}): Promise<Reply | undefined> {
    const [reply] = await this.sendTogether([{ command, ...options }]);
    return reply!;
  }

  /** Closes the producer this client opened; the log and the replies listener stay open. */
  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await producer?.close();
  }

  /**
   * Writes commands in one request, in order (so they reach their shards together); resolves,
   * once they are written, with a promise of each one's reply as {@link send} gives it.
   * @throws InvalidArgumentError before anything is written, for any command that breaks a rule
   */
  private async sendTogether(sends: ReadonlyArray<{ command: Command; awaitReply?: boolean; timeoutMs?: number }>): Promise<Array<Promise<Reply | undefined>>> {
    for (const { command, timeoutMs } of sends) {
      assertValid(firstProblem(() => commandProblem(command), () => (timeoutMs === undefined ? null : waitProblem(timeoutMs, 'timeoutMs'))));
    }
    this.producer ??= await this.log.producer();
    const records = [];
    for (const { command } of sends) {
      records.push({ topic: this.catalog.commands, key: workflowKey(command.namespace, command.workflowId), value: await this.serde.encode(commandCodec, command, this.catalog.commands) });
    }
    // Listening before writing: an answer can never come before its listener.
    const expected = sends.map(({ command, awaitReply, timeoutMs }) => (awaitReply && command.replyTo ? this.replies.expect(command.replyTo.requestId, timeoutMs ?? 30_000) : undefined));
    for (const reply of expected) reply?.catch(() => undefined);
    const written = this.producer.send(records);
    const replies = sends.map(({ command, timeoutMs }, i) => this.replyTo(command, written, expected[i], timeoutMs));
    // Each caller awaits the replies it wants; none may surface as unhandled meanwhile.
    for (const reply of replies) reply.catch(() => undefined);
    return replies;
  }

  /** The reply to `command` (`reply`, when one is awaited) once it is `written`. */
  private async replyTo(command: Command, written: Promise<unknown>, reply: Promise<Reply> | undefined, timeoutMs: number | undefined): Promise<Reply | undefined> {
    if (!reply) {
      await written;
      return undefined;
    }
    // The caller's wait covers the write too: a write still under way when it runs out (a broker
    // failing over) ends the call like an unanswered command, which it may yet become.
    written.catch(() => undefined);
    await Promise.race([written, reply.then(() => undefined, () => undefined)]);
    return reply.catch((error: unknown) => {
      if (!(error instanceof ReplyTimeoutError) || !command.replyTo) throw error;
      throw new ReplyTimeoutError(command.replyTo.requestId, timeoutMs ?? 30_000, { namespace: command.namespace, workflowId: command.workflowId });
    });
  }

  /** Builds a command envelope; `awaitReply` sets a reply address of this client's listener. */
  envelope(namespace: string, workflowId: string, body: CommandBody, options: { runId?: string | null; requestId?: string; awaitReply?: boolean } = {}): Command {
    const requestId = options.requestId ?? randomUUID();
    return {
      requestId,
      namespace,
      workflowId,
      runId: options.runId ?? null,
      replyTo: options.awaitReply === false ? null : { gatewayId: this.replies.gatewayId, requestId: randomUUID() },
      body,
    };
  }

  /**
   * Queries a workflow (its current run unless `runId` is given) and resolves with the handler's
   * decoded result. Nothing is written to the run's history.
   * @throws InvalidArgumentError for a bad namespace, id or name, or a wait longer than 1 h; LogbookError `WorkflowNotFound` / `RunNotFound`; `QueryFailedError` (`UnknownQuery`,
   *   `QueryFailed`); `QueryTimeoutError` when no worker answers within `timeoutMs` (default 10 s)
   * @example
   * const status = await client.query<{ stage: string }>('order-1', 'status');
   */
  async query<R = unknown>(workflowId: string, queryType: string, args: readonly unknown[] = [], options: QueryOptions = {}): Promise<R> {
    assertValid(firstProblem(
      () => namespaceProblem(options.namespace ?? 'default'),
      () => identifierProblem(workflowId, 'workflowId'),
      () => identifierProblem(queryType, 'queryType'),
      () => optionalIdentifierProblem(options.runId, 'runId'),
      () => (options.timeoutMs === undefined ? null : waitProblem(options.timeoutMs, 'timeoutMs')),
    ));
    return this.queries.query<R>(workflowId, queryType, args, options);
  }

  /** Starts a workflow and waits until the engine accepted it; resolves with its run id. */
  async start(options: StartOptions): Promise<Reply> {
    return (await this.send(this.startCommand(options), { awaitReply: true }))!;
  }

  /**
   * Starts a workflow and waits for it to close, in one write: the start and the wait for the run
   * it starts go to the command topic together, and the engine applies them in order (mostly in one
   * transaction), so the wait costs no round trip of its own. A start answered with another run (a
   * deduplicated retry, or conflict policy `UseExisting`) waits for that run instead. The wait
   * follows the run's continuations (continue-as-new, retries, cron) unless `followRuns` is false.
   * @returns the start's reply and, unless the start was refused, the closing reply (`Result`)
   * @throws InvalidArgumentError before anything is written, as {@link start} does
   * @throws ReplyTimeoutError when the workflow has not closed within `timeoutMs` (default 30 s,
   *   one deadline for the whole call; the start may have been applied); its `target` names the workflow
   * @example
   * const { start, result } = await client.execute({ workflowId: 'order-1', workflowType: 'order', taskQueue: 'orders' });
   */
  async execute(options: StartOptions & { timeoutMs?: number; followRuns?: boolean }): Promise<{ start: Reply; result: Reply | undefined }> {
    const start = this.startCommand(options);
    const runId = start.body.type === 'StartWorkflowExecution' ? start.body.runId : null;
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = performance.now() + timeoutMs;
    const awaitRun = (run: string | null) => ({
      command: this.envelope(start.namespace, options.workflowId, { type: 'AwaitWorkflowExecutionResult', followRuns: options.followRuns ?? true }, { runId: run }),
      awaitReply: true,
      timeoutMs: Math.max(1, Math.ceil(deadline - performance.now())),
    });
    const [started, waited] = await this.sendTogether([{ command: start, awaitReply: true, timeoutMs }, awaitRun(runId)]);
    // The start's answer decides which wait counts: a refused start's wait answers RunNotFound.
    const startReply = (await started!)!;
    if (startReply.kind !== 'StartAccepted' && startReply.kind !== 'AlreadyStarted') return { start: startReply, result: undefined };
    if (startReply.runId === runId || startReply.runId === null) return { start: startReply, result: await waited! };
    const [other] = await this.sendTogether([awaitRun(startReply.runId)]);
    return { start: startReply, result: await other! };
  }

  private startCommand(options: StartOptions): Command {
    const body = { type: 'StartWorkflowExecution' as const, ...startRequest(options, this.dataConverter, this.identity) };
    return this.envelope(options.namespace ?? 'default', options.workflowId, body, options.requestId ? { requestId: options.requestId } : {});
  }
}
