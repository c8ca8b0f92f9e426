import { randomUUID } from 'node:crypto';
import type { TopicCatalog } from '../../topics/catalog.js';
import { workflowKey } from '../../topics/catalog.js';
import type { Log, Producer } from '../../topics/log/log.js';
import type { DataConverter, PayloadCodec } from '../../topics/payload/index.js';
import type { CommandBody } from '../../topics/schemas/command/index.js';
import type { ReplyTo } from '../../topics/schemas/common/v1-records.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Serde } from '../../topics/serde/index.js';
import { commandCodec } from '../../topics/serde/index.js';
import { writeWithRetry } from './write-retry.js';

/** What a worker needs to reach the engine: the log, the topic names, the serde and a data converter. */
export interface WorkerConnection {
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly dataConverter: DataConverter;
  /** Payload codecs the workers apply at their boundaries (encryption); none by default. */
  readonly payloadCodecs?: readonly PayloadCodec[];
}

/** The run a worker reports on. */
export interface RunRef {
  readonly namespace: string;
  readonly workflowId: string;
  readonly runId: string;
}

/**
 * Writes worker commands (claims, results, heartbeats) to the command topic with the shared
 * idempotent producer. Results are matched by scheduled event id and attempt, so a duplicate or
 * late one is harmless; a claim is known by its request id (one attempt has one holder).
 */
export class CommandWriter {
  private producer: Promise<Producer> | undefined;

  /** @param encode applied to every body before it is written (the worker's payload codecs); none by default */
  constructor(
    private readonly connection: WorkerConnection,
    private readonly encode: (run: RunRef, body: CommandBody) => Promise<CommandBody> = async (_run, body) => body,
  ) {}

  /**
   * Writes one command; `replyTo` asks the engine to answer on the replies topic. `requestId`
   * names the command: repeat it to write the same command again.
   */
  async write(run: RunRef, body: CommandBody, replyTo: ReplyTo | null = null, requestId: string = randomUUID()): Promise<void> {
    await this.send(run, await this.encode(run, body), replyTo, requestId);
  }

  private async send(run: RunRef, body: CommandBody, replyTo: ReplyTo | null, requestId: string): Promise<void> {
    const { log, catalog, serde } = this.connection;
    // A producer that failed to open is opened again by the next write, not kept failing.
    this.producer ??= log.producer().catch((error: unknown) => {
      this.producer = undefined;
      throw error;
    });
    const command = { requestId, namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, replyTo, body };
    await (await this.producer).send([
      { topic: catalog.commands, key: workflowKey(run.namespace, run.workflowId), value: await serde.encode(commandCodec, command, catalog.commands) },
    ]);
  }

  /**
   * Writes a task's claim or answer until it lands, while `signal` (the task's partition is still
   * this worker's) allows; see {@link writeWithRetry}. Every try carries the same request id, so a
   * try that landed although its send reported an error is still one command, and a claim written
   * twice stays one holder's.
   * @throws TaskHandedBackError when `signal` aborted first; the caller leaves the task unfinished
   */
  async writeUntilDone(run: RunRef, body: CommandBody, signal: AbortSignal): Promise<void> {
    const requestId = randomUUID();
    // Encoded once: every try carries the same bytes.
    const encoded = await this.encode(run, body);
    await writeWithRetry(() => this.send(run, encoded, null, requestId), signal, `${body.type} of ${run.workflowId}`);
  }
}

/** Converts a thrown value into a Failure; `type` and `nonRetryable` follow Temporal's ApplicationFailure. */
export function toFailure(error: unknown, source = 'TypeScriptSDK'): Failure {
  const e = error as { message?: unknown; stack?: unknown; type?: unknown; name?: unknown; nonRetryable?: unknown; cause?: unknown };
  const isError = error instanceof Error;
  return {
    message: isError ? error.message : String(error),
    source,
    stackTrace: typeof e?.stack === 'string' ? e.stack : '',
    code: typeof e?.type === 'string' ? e.type : typeof e?.name === 'string' ? e.name : 'Error',
    nonRetryable: e?.nonRetryable === true,
    details: null,
    cause: isError && e.cause !== undefined ? toFailure(e.cause, source) : null,
  };
}
