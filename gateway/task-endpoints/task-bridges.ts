import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { activityWorkersGroupId, queryWorkersGroupId, workflowKey, workflowWorkersGroupId } from '../../topics/catalog.js';
import type { Producer } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import type { Command, CommandBody } from '../../topics/schemas/command/index.js';
import { commandProblem } from '../../topics/validation/index.js';
import type { WorkflowTask } from '../../topics/schemas/workflow-task/index.js';
import { activityTaskCodec, commandCodec, EncodeError, queryTaskCodec, replyCodec, workflowTaskCodec, type RecordCodec } from '../../topics/serde/index.js';
import type { QueryTask } from '../../topics/schemas/query-task/index.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { ReplyTimeoutError } from '../../topics/replies/reply-listener.js';
import type { Engine } from '../engine.js';
import { HttpError } from '../http-errors.js';
import { CancellationWatch } from './cancellation-watch.js';
import { TaskBridge } from './task-bridge.js';
import { TokenSigner } from './token-signer.js';
import type { TaskKind, TaskTokenData } from './task-token.js';

/** A bridge no poller has used for this long leaves the worker group, so Kafka workers get its partitions. */
const IDLE_MS = 60_000;
/**
 * How long a poll waits for the engine to answer the claim of the task it hands out (the write
 * included): a poll answers within its own waitMs plus this, even while a broker fails over.
 */
const CLAIM_REPLY_TIMEOUT_MS = 5_000;

interface Stoppable {
  readonly lastUsed: number;
  stop(): Promise<void>;
}

/**
 * The gateway's task bridges, one per (namespace, task queue, kind), created on first use, plus a
 * cancellation watch per queue and the producer that writes claims and results. One per engine.
 */
export class TaskBridges {
  private readonly entries = new Map<string, Promise<Stoppable & { alive?: boolean; quiet?: boolean }>>();
  private producer: Promise<Producer> | undefined;
  private readonly sweeper: NodeJS.Timeout;
  /** Signs and checks the tokens this gateway hands out with the tasks. */
  readonly signer: TokenSigner;
  /** This gateway's name as a member of the worker groups. */
  readonly identity = `http-bridge-${process.pid}@${hostname()}-${randomUUID().slice(0, 8)}`;

  /** The engine's data converter: what JSON values of HTTP workers are encoded with. */
  get dataConverter(): DataConverter {
    return this.engine.dataConverter;
  }

  constructor(
    private readonly engine: Engine,
    taskTokenKey?: Buffer,
  ) {
    this.signer = new TokenSigner(taskTokenKey);
    this.sweeper = setInterval(() => void this.sweep(), IDLE_MS / 4);
    this.sweeper.unref();
  }

  workflow(namespace: string, taskQueue: string): Promise<TaskBridge<WorkflowTask>> {
    const { catalog } = this.engine;
    return this.topicBridge('workflow', namespace, taskQueue, catalog.taskTopics(namespace, taskQueue).workflow, workflowWorkersGroupId(catalog, namespace, taskQueue), workflowTaskCodec);
  }

  async activity(namespace: string, taskQueue: string): Promise<TaskBridge<ActivityTask>> {
    const { catalog } = this.engine;
    // Watch cancellations from the first poll on, so the first heartbeat can already see them.
    (await this.cancellations(namespace, taskQueue)).lastUsed = Date.now();
    return this.topicBridge('activity', namespace, taskQueue, catalog.taskTopics(namespace, taskQueue).activity, activityWorkersGroupId(catalog, namespace, taskQueue), activityTaskCodec);
  }

  /**
   * The queue's query bridge: the gateway joins the queue's query-worker group, so HTTP pollers
   * and Kafka query workers share the queries (any of them can answer any query).
   */
  query(namespace: string, taskQueue: string): Promise<TaskBridge<QueryTask>> {
    const { catalog } = this.engine;
    return this.topicBridge('query', namespace, taskQueue, catalog.taskTopics(namespace, taskQueue).query, queryWorkersGroupId(catalog, namespace, taskQueue), queryTaskCodec);
  }

  /** The bridge of one task topic, joining the worker group the Kafka workers of that kind join. */
  private topicBridge<T>(kind: TaskKind | 'query', namespace: string, taskQueue: string, topic: string, groupId: string, codec: RecordCodec<T>): Promise<TaskBridge<T>> {
    const { serde, log } = this.engine;
    return this.bridge(kind, namespace, taskQueue, async () =>
      new TaskBridge<T>({ log, topic, groupId, identity: this.identity, decode: (value) => serde.decode(codec, value) }),
    );
  }

  cancellations(namespace: string, taskQueue: string): Promise<CancellationWatch> {
    const { catalog, log, serde } = this.engine;
    return this.lazily(`control/${namespace}/${taskQueue}`, namespace, taskQueue, async () => {
      // A group per watch: it remembers cancellations in memory only, so a new watch reads the topic from the start.
      const watch = new CancellationWatch({ log, serde, topic: catalog.taskTopics(namespace, taskQueue).control, groupId: `${catalog.prefix}-activity-control-${this.identity}-${randomUUID().slice(0, 8)}`, identity: this.identity });
      await watch.start();
      return watch;
    });
  }

  /** Releases a finished task's record on the bridge that handed it out (a no-op on another node). */
  async finish(token: TaskTokenData): Promise<void> {
    const entry = this.entries.get(`${token.kind}/${token.namespace}/${token.taskQueue}`);
    const bridge = (await entry?.catch(() => undefined)) as TaskBridge<unknown> | undefined;
    bridge?.finish(token.partition, token.offset);
  }

  /**
   * Claims a task for the poller it is handed to and waits for the engine's answer: one attempt
   * has one holder, so a task redelivered to this bridge (a gateway or worker that had it left the
   * group) whose attempt another claim holds, or that has ended, is `refused` and must not be
   * handed out. With no answer in CLAIM_REPLY_TIMEOUT_MS it is `unanswered`, and the caller gives
   * it back for a later poll. A write that fails throws; the caller gives the task back.
   */
  async claim(token: TaskTokenData): Promise<'accepted' | 'refused' | 'unanswered'> {
    const client = this.engine.client;
    const type = token.kind === 'workflow' ? 'WorkflowTaskStarted' : 'ActivityTaskStarted';
    const body = { type, scheduledEventId: token.scheduledEventId, attempt: token.attempt, identity: token.identity } as const;
    try {
      const reply = await client.send(client.envelope(token.namespace, token.workflowId, body, { runId: token.runId }), { awaitReply: true, timeoutMs: CLAIM_REPLY_TIMEOUT_MS });
      return reply?.kind === 'Accepted' ? 'accepted' : 'refused';
    } catch (error) {
      if (error instanceof ReplyTimeoutError) return 'unanswered';
      throw error;
    }
  }

  /**
   * Writes a claim or result for a run to the command topic. A body that breaks a validation rule
   * (a task queue that cannot be part of a topic name, a duration past 100 years, …) or does not
   * fit the command schema is the worker's mistake: a 400 naming the rule or the field path.
   */
  async write(run: { namespace: string; workflowId: string; runId: string }, body: CommandBody): Promise<void> {
    const { catalog, serde, log } = this.engine;
    const command = { requestId: randomUUID(), namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, replyTo: null, body } as Command;
    const problem = commandProblem(command);
    if (problem !== null) throw new HttpError(400, 'INVALID_ARGUMENT', `${body.type}: ${problem}`);
    let value: Buffer;
    try {
      value = await serde.encode(commandCodec, command, catalog.commands);
    } catch (error) {
      if (error instanceof EncodeError) throw new HttpError(400, 'INVALID_ARGUMENT', `${body.type}: ${error.message}`);
      throw error;
    }
    this.producer ??= log.producer();
    await (await this.producer).send([{ topic: catalog.commands, key: workflowKey(run.namespace, run.workflowId), value }]);
  }

  /** Writes a query's answer to the replies topic, where its asker waits for it. */
  async reply(reply: Reply): Promise<void> {
    const { catalog, serde, log } = this.engine;
    const value = await serde.encode(replyCodec, reply, catalog.replies);
    this.producer ??= log.producer();
    await (await this.producer).send([{ topic: catalog.replies, key: reply.requestId, value }]);
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map(async (e) => (await e.catch(() => undefined))?.stop()));
    await (await this.producer?.catch(() => undefined))?.close();
  }

  private bridge<T>(kind: TaskKind | 'query', namespace: string, taskQueue: string, create: () => Promise<TaskBridge<T>>): Promise<TaskBridge<T>> {
    return this.lazily(`${kind}/${namespace}/${taskQueue}`, namespace, taskQueue, async () => {
      const bridge = await create();
      await bridge.start();
      return bridge;
    });
  }

  private async lazily<T extends Stoppable>(key: string, namespace: string, taskQueue: string, create: () => Promise<T>): Promise<T> {
    const existing = this.entries.get(key) as Promise<T & { alive?: boolean }> | undefined;
    if (existing) {
      const current = await existing.catch(() => undefined);
      if (current && current.alive !== false) return current;
      if (this.entries.get(key) === existing) this.entries.delete(key);
      return this.lazily(key, namespace, taskQueue, create);
    }
    const created = (async () => {
      try {
        // Bounded like the engine's own task queues: an anonymous poll of ever new names creates no topics past the limit.
        await this.engine.node.taskTopics.ensure(namespace, taskQueue);
      } catch (error) {
        // The catalog refuses names that cannot be part of a topic name.
        if (error instanceof RangeError) throw new HttpError(400, 'INVALID_ARGUMENT', error.message);
        throw error;
      }
      return create();
    })();
    this.entries.set(key, created);
    created.catch(() => this.entries.get(key) === created && this.entries.delete(key));
    return created;
  }

  /** Stops bridges and watches nobody used for IDLE_MS (bridges only when nothing is handed out). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      const resource = await entry.catch(() => undefined);
      if (!resource || now - resource.lastUsed < IDLE_MS || resource.quiet === false) continue;
      if (this.entries.get(key) !== entry) continue;
      this.entries.delete(key);
      await resource.stop().catch(() => undefined);
    }
  }
}

const registries = new WeakMap<Engine, TaskBridges>();

/**
 * The task bridges of an engine (one set per engine, shared by every router mounted on it).
 * `taskTokenKey` signs their tokens (default a random key): the first call's key is kept.
 */
export function taskBridges(engine: Engine, taskTokenKey?: Buffer): TaskBridges {
  let bridges = registries.get(engine);
  if (!bridges) registries.set(engine, (bridges = new TaskBridges(engine, taskTokenKey)));
  return bridges;
}

/** Leaves the worker groups and closes the producer; call before `engine.stop()`. */
export async function stopTaskBridges(engine: Engine): Promise<void> {
  await registries.get(engine)?.stop();
  registries.delete(engine);
}
