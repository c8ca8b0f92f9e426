import { randomUUID } from 'node:crypto';
import type { TopicCatalog } from '../catalog.js';
import { LogbookError } from '../errors.js';
import type { GroupConsumer, Log } from '../log/log.js';
import type { Reply } from '../schemas/reply/index.js';
import type { Serde } from '../serde/index.js';
import { replyCodec } from '../serde/index.js';

/** A reply did not arrive in time. Retriable: the command itself may still be applied. */
export class ReplyTimeoutError extends LogbookError {
  constructor(
    requestId: string,
    /** How long the caller waited. */
    readonly timeoutMs: number,
    /** The workflow the unanswered command was for, when known (a gateway then checks its shard). */
    readonly target?: { readonly namespace: string; readonly workflowId: string },
  ) {
    super('REPLY_TIMEOUT', `no reply to request ${requestId} within ${timeoutMs} ms; the command may still be applied`, { retriable: true });
  }
}

/**
 * Reads the replies topic for one gateway: its own consumer group (so every gateway sees every
 * reply), positioned at the end before the first request is sent, and resolves the waiter of each
 * reply by request id. Replies for requests of other gateways are skipped.
 */
export class ReplyListener {
  readonly gatewayId = `gw-${randomUUID()}`;
  private readonly waiters = new Map<string, (reply: Reply) => void>();
  /** How to end each pending wait when the listener stops, by request id. */
  private readonly abandons = new Map<string, (error: Error) => void>();
  private consumer: GroupConsumer | undefined;
  private readonly abort = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private positioned = 0;
  /** Per partition, the offset after the last reply read (where a re-assignment resumes). */
  private readonly nextOffsets = new Map<number, number>();
  /** Partitions positioned (or being positioned) once, each with its poll loop. */
  private readonly tracked = new Set<number>();
  private partitions = 0;

  constructor(
    private readonly log: Log,
    private readonly catalog: TopicCatalog,
    private readonly serde: Serde,
  ) {}

  /** Joins, seeks every partition to its end, and resolves once all are positioned. */
  async start(): Promise<void> {
    const consumer = this.log.groupConsumer({ groupId: this.gatewayId, topics: [this.catalog.replies], endpoint: this.gatewayId });
    this.consumer = consumer;
    const description = await this.log.admin.describeTopics([this.catalog.replies]);
    this.partitions = description.get(this.catalog.replies)?.partitions ?? 0;
    await consumer.start({
      onRevoked: () => undefined,
      onAssigned: (partitions) => {
        for (const p of partitions) {
          // Assigned again (its one-member group rebalanced, say when the coordinator moved): go on
          // from the last reply read, or the replies written meanwhile would be skipped and their
          // callers left to time out.
          if (this.tracked.has(p)) {
            const resumeAt = this.nextOffsets.get(p);
            // Still being positioned at its end: that seek comes.
            if (resumeAt !== undefined) consumer.seek(p, { [this.catalog.replies]: resumeAt });
            continue;
          }
          this.tracked.add(p);
          void this.log.endOffset(this.catalog.replies, p).then((end) => {
            this.nextOffsets.set(p, end);
            consumer.seek(p, { [this.catalog.replies]: end });
            this.positioned++;
            this.loops.push(this.poll(p));
          });
        }
      },
    });
    const deadline = Date.now() + 60_000;
    while (this.positioned < this.partitions) {
      if (Date.now() > deadline) throw new LogbookError('REPLIES_NOT_READY', 'the replies topic was not assigned within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Registers interest in a request id before the command is sent; the promise resolves with the
   * reply or rejects with `ReplyTimeoutError`.
   */
  expect(requestId: string, timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const forget = () => {
        clearTimeout(timer);
        this.waiters.delete(requestId);
        this.abandons.delete(requestId);
      };
      const timer = setTimeout(() => {
        forget();
        reject(new ReplyTimeoutError(requestId, timeoutMs));
      }, timeoutMs);
      this.waiters.set(requestId, (reply) => {
        forget();
        resolve(reply);
      });
      this.abandons.set(requestId, (error) => {
        forget();
        reject(error);
      });
    });
  }

  /** Stops listening; every wait still pending rejects at once (`LISTENER_STOPPED`), so nothing waits on a closed client. */
  async stop(): Promise<void> {
    this.abort.abort();
    const stopped = new LogbookError('LISTENER_STOPPED', 'the client was closed while waiting for the engine\'s answer');
    for (const abandon of [...this.abandons.values()]) abandon(stopped);
    await this.consumer?.stop();
    await Promise.all(this.loops);
  }

  private async poll(partition: number): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const records = await this.consumer!.take(partition, { maxRecords: 500, maxBytes: 8 << 20, waitMs: 500, signal });
      for (const record of records) {
        this.nextOffsets.set(partition, record.offset + 1);
        const requestId = record.key?.toString('utf8');
        const waiter = requestId === undefined ? undefined : this.waiters.get(requestId);
        if (!waiter || !record.value) continue;
        waiter(await this.serde.decode(replyCodec, record.value));
      }
    }
  }
}
