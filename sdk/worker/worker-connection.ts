import { randomUUID } from 'node:crypto';
import type { TopicCatalog } from '../../topics/catalog.js';
import { workflowKey } from '../../topics/catalog.js';
import type { Log, Producer } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { CommandBody } from '../../topics/schemas/command/index.js';
import type { ReplyTo } from '../../topics/schemas/common/v1-records.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Serde } from '../../topics/serde/index.js';
import { commandCodec } from '../../topics/serde/index.js';

/** What a worker needs to reach the engine: the log, the topic names, the serde and a data converter. */
export interface WorkerConnection {
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly serde: Serde;
  readonly dataConverter: DataConverter;
}

/** The run a worker reports on. */
export interface RunRef {
  readonly namespace: string;
  readonly workflowId: string;
  readonly runId: string;
}

/**
 * Writes worker commands (claims, results, heartbeats) to the command topic with the shared
 * idempotent producer. Fire-and-forget for the engine: results are matched by scheduled event id
 * and attempt, so a duplicate or late one is harmless.
 */
export class CommandWriter {
  private producer: Promise<Producer> | undefined;

  constructor(private readonly connection: WorkerConnection) {}

  /** Writes one command; `replyTo` asks the engine to answer on the replies topic. */
  async write(run: RunRef, body: CommandBody, replyTo: ReplyTo | null = null): Promise<void> {
    const { log, catalog, serde } = this.connection;
    this.producer ??= log.producer();
    const command = { requestId: randomUUID(), namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, replyTo, body };
    await (await this.producer).send([
      { topic: catalog.commands, key: workflowKey(run.namespace, run.workflowId), value: await serde.encode(commandCodec, command, catalog.commands) },
    ]);
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
