/**
 * `client.workflow` straight on Kafka: what a `Connection.connect({ brokers })` client writes goes
 * to the command topic, and its answers come back on the replies topic — starts, signals,
 * cancellations, terminations, updates, update-with-start and the waits for results. What needs a
 * shard's stores (describe, list, count, history, where a query goes, the outcome of an older run)
 * is read through the gateway, as the engine keeps it there.
 * @module
 */
import { LogbookError } from '../../../topics/errors.js';
import type { ClientPayloads } from '../client-payloads.js';
import { statusOfErrorCode } from '../../../topics/error-status.js';
import { ReplyTimeoutError } from '../../../topics/replies/reply-listener.js';
import type { HistoryEvent } from '../../../topics/schemas/history-event/index.js';
import type { Failure } from '../../../topics/schemas/common/v1-records.js';
import type { Reply } from '../../../topics/schemas/reply/index.js';
import type { CommandClient } from '../command-client.js';
import { WorkflowClientError } from '../gateway-call.js';
import { checkIdentifier, waitOption } from '../option-rules.js';
import { startRequest, type StartOptions } from '../start-options.js';
import { DEFAULT_UPDATE_WAIT_MS, sendUpdate, sendUpdateWithStart, type UpdateAnswer } from '../update-sender.js';
import type { ClientStartOptions, WorkflowClient as GatewayWorkflowClient, WorkflowExecutionInfo, WorkflowHandle, WorkflowOutcome } from '../workflow-client.js';
import { WorkflowUpdateFailedError, type UpdateOptions, type UpdateReference, type UpdateWithStartOptions, type WorkflowUpdateHandle } from '../workflow-updates.js';
import type { FailureJson } from './workflow-errors.js';

/** Written in commands as the caller's identity. */
const IDENTITY = 'logbook-client';
/** The engine's marker for an update outcome too old or large for the run's state: it is read from history. */
const OUTCOME_IN_HISTORY = 'UpdateOutcomeInHistory';

/** The engine's refusal (an Error reply, a LogbookError) as the error the compatible client translates, with the status the gateway would answer. */
function clientError(code: string, message: string, retriable: boolean): WorkflowClientError {
  return new WorkflowClientError(code, message, statusOfErrorCode(code) ?? (retriable ? 503 : 500));
}

/** Any error of a Kafka call as a {@link WorkflowClientError}; a reply that never came is `REPLY_TIMEOUT` (504). */
function asClientError(error: unknown): unknown {
  if (error instanceof WorkflowClientError) return error;
  if (error instanceof ReplyTimeoutError) return new WorkflowClientError('REPLY_TIMEOUT', error.message, 504);
  if (error instanceof LogbookError) return clientError(error.code, error.message, error.retriable);
  return error;
}

/** The reply, unless it is the engine's refusal. */
function accepted(reply: Reply | undefined): Reply {
  if (!reply) throw new WorkflowClientError('REPLY_TIMEOUT', 'the engine did not answer', 504);
  if (reply.kind === 'Error') throw clientError(reply.failure?.code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the request', false);
  return reply;
}

/** The compatible client's workflow calls over a command client, reading through a gateway. */
export class KafkaWorkflowService {
  constructor(
    private readonly commands: CommandClient,
    private readonly namespace: string,
    /** The gateway, for what only the shard stores know. */
    private readonly reads: GatewayWorkflowClient,
    /** The client's payload codecs: the engine's answers are decoded here (commands were encoded by the command client's serde). */
    private readonly payloads?: ClientPayloads,
  ) {}

  async start(workflowType: string, options: ClientStartOptions): Promise<{ runId: string | undefined }> {
    const reply = await this.call(() => this.commands.start(this.startOptions(workflowType, options)));
    return { runId: accepted(reply).runId ?? undefined };
  }

  async signalWithStart(workflowType: string, options: ClientStartOptions & { signal: string; signalArgs?: readonly unknown[] }): Promise<{ runId: string | undefined }> {
    const { signal, signalArgs, ...start } = options;
    checkIdentifier(signal, 'signal');
    const request = startRequest(this.startOptions(workflowType, start), this.commands.dataConverter, IDENTITY);
    const signalInput = (signalArgs ?? []).map((a) => this.commands.dataConverter.toPayload(a));
    const body = { type: 'SignalWithStartWorkflowExecution' as const, start: request, signalName: signal, signalInput, signalHeader: {} };
    const reply = await this.send(options.workflowId, body, undefined, options.requestId);
    return { runId: reply.runId ?? undefined };
  }

  async executeUpdateWithStart<R = unknown>(update: string, options: UpdateWithStartOptions): Promise<R> {
    return this.updateOutcome<R>(options.workflowId, undefined, await this.updateWithStart(update, options, 'Completed'));
  }

  async startUpdateWithStart(update: string, options: UpdateWithStartOptions): Promise<{ updateId: string; runId: string | undefined }> {
    const answer = await this.updateWithStart(update, options, 'Accepted');
    await this.updateOutcome(options.workflowId, undefined, answer);
    return { updateId: answer.updateId, runId: answer.reply.runId ?? undefined };
  }

  getHandle(workflowId: string, runId?: string): WorkflowHandle {
    const read = this.reads.getHandle(workflowId, runId);
    const run = runId ? { runId } : {};
    const sendToRun = async (body: Parameters<CommandClient['envelope']>[2]) => void (await this.send(workflowId, body, runId));
    const updateHandle = <R>(updateId: string, workflowRunId: string | undefined): WorkflowUpdateHandle<R> => ({
      updateId,
      workflowId,
      workflowRunId,
      result: async () => this.updateOutcome<R>(workflowId, runId, await this.call(() => sendUpdate(this.commands, { namespace: this.namespace, workflowId, ...run, name: '', updateId, identity: IDENTITY }))),
    });
    const update = async (name: string | UpdateReference<unknown, never[]>, options: UpdateOptions, waitForStage: 'Accepted' | 'Completed') => {
      const updateName = typeof name === 'string' ? name : name.name;
      checkIdentifier(updateName, 'update name');
      const timeoutMs = options.timeout === undefined ? DEFAULT_UPDATE_WAIT_MS : waitOption(options.timeout, 'timeout');
      const call = { namespace: this.namespace, workflowId, ...run, name: updateName, args: options.args ?? [], waitForStage, timeoutMs, identity: IDENTITY, ...(options.updateId ? { updateId: options.updateId } : {}) };
      return this.call(() => sendUpdate(this.commands, call));
    };
    return {
      workflowId,
      runId,
      signal: async (signalName, ...args) => {
        checkIdentifier(signalName, 'signalName');
        const input = args.map((a) => this.commands.dataConverter.toPayload(a));
        await sendToRun({ type: 'SignalWorkflowExecution', signalName, input, identity: IDENTITY, header: {}, externalInitiator: null, childWorkflowOnly: false });
      },
      cancel: (reason) => sendToRun({ type: 'RequestCancelWorkflowExecution', identity: IDENTITY, reason: reason ?? '', externalInitiator: null, childWorkflowOnly: false }),
      terminate: (reason) => sendToRun({ type: 'TerminateWorkflowExecution', reason: reason ?? '', details: null, identity: IDENTITY }),
      describe: () => this.read(() => read.describe()),
      reset: (options) => this.read(() => read.reset(options)),
      fetchHistory: () => this.read(() => read.fetchHistory()),
      result: <T>(timeout = '60s', options: { followRuns?: boolean } = {}) => this.result<T>(workflowId, runId, waitOption(timeout, 'timeout'), options.followRuns ?? true),
      query: async <R>(query: string | { name: string }, ...args: unknown[]) => {
        const name = typeof query === 'string' ? query : query.name;
        // The reply listener is shared and cannot run codecs: a client with codecs asks through the gateway, which hands back envelopes.
        if (this.payloads) return this.read(() => read.query<R>(name, ...args));
        return this.read(() => this.call(() => this.commands.query<R>(workflowId, name, args, { namespace: this.namespace, ...run })));
      },
      executeUpdate: async <R>(name: string | UpdateReference<R, never[]>, options: UpdateOptions = {}) => this.updateOutcome<R>(workflowId, runId, await update(name, options, 'Completed')),
      startUpdate: async <R>(name: string | UpdateReference<R, never[]>, options: UpdateOptions & { waitForStage: 'ACCEPTED' }) => {
        const answer = await update(name, options, 'Accepted');
        await this.updateOutcome(workflowId, runId, answer);
        return updateHandle<R>(answer.updateId, answer.reply.runId ?? runId);
      },
      getUpdateHandle: <R>(updateId: string) => {
        checkIdentifier(updateId, 'updateId');
        return updateHandle<R>(updateId, runId);
      },
    } as WorkflowHandle;
  }

  async *list(options: { query?: string; pageSize?: number } = {}): AsyncIterable<WorkflowExecutionInfo> {
    let nextPageToken: string | null = null;
    do {
      const page: Awaited<ReturnType<GatewayWorkflowClient['listPage']>> = await this.read(() => this.reads.listPage({ ...options, ...(nextPageToken ? { nextPageToken } : {}) }));
      yield* page.executions;
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
  }

  count(query = ''): Promise<number> {
    return this.read(() => this.reads.count(query));
  }

  fetchRawHistory(workflowId: string, runId: string | undefined): Promise<HistoryEvent[]> {
    return this.read(() => this.reads.fetchRawHistory(workflowId, runId));
  }

  /**
   * Waits for the run to close: the engine answers a wait on the current run (or, following, the
   * chain's first run); the outcome of a run it no longer holds, or the run that continued one, is
   * read through the gateway, as the engine wrote it.
   */
  private async result<T>(workflowId: string, runId: string | undefined, timeoutMs: number, followRuns: boolean): Promise<WorkflowOutcome<T>> {
    const body = { type: 'AwaitWorkflowExecutionResult' as const, followRuns };
    const command = this.commands.envelope(this.namespace, workflowId, body, runId ? { runId } : {});
    const deadline = Date.now() + timeoutMs;
    const reply = await this.call(() => this.commands.send(command, { awaitReply: true, timeoutMs: Math.max(1, timeoutMs) }));
    const fromGateway = (run: string | undefined) => this.read(() => this.reads.getHandle(workflowId, run).result<T>(`${Math.max(1, deadline - Date.now())}ms`, { followRuns }));
    if (reply?.kind === 'Error' && reply.failure?.code === 'RunNotFound' && runId) return fromGateway(runId);
    const closed = accepted(reply);
    // The run that continued this one is in its closing event: the gateway reads it for that run (not the current one).
    if (closed.executionStatus === 'ContinuedAsNew') return fromGateway(closed.runId ?? runId);
    const converter = this.commands.dataConverter;
    const decoded = this.payloads ? await this.payloads.decodeRecords({ payload: closed.payload, failure: closed.failure }) : closed;
    return {
      runId: closed.runId ?? '',
      status: closed.executionStatus ?? 'Unknown',
      result: (decoded.payload ? converter.fromPayload(decoded.payload) : null) as T | null,
      failure: decoded.failure ? failureJson(decoded.failure, converter.fromPayload.bind(converter)) : null,
      newExecutionRunId: null,
    };
  }

  /** The update's answer as the gateway client gives it: its result, or the error it stands for. */
  private async updateOutcome<R>(workflowId: string, runId: string | undefined, answer: UpdateAnswer): Promise<R> {
    const { reply, updateId } = answer;
    if (reply.kind === 'Error') {
      const code = reply.failure?.code ?? 'ENGINE_ERROR';
      const message = reply.failure?.message ?? 'the engine refused the update';
      if (code === 'UpdateRejected') throw new WorkflowUpdateFailedError(message, { code, message });
      throw clientError(code, message, false);
    }
    if (reply.kind === 'Accepted' || reply.kind === 'StartAccepted' || reply.kind === 'AlreadyStarted') return undefined as R;
    if (reply.kind !== 'UpdateResult') throw new WorkflowClientError('ENGINE_ERROR', `unexpected reply ${reply.kind} to update ${updateId}`, 500);
    // Too old or large for the run's state: the gateway reads it from history.
    if (reply.failure?.code === OUTCOME_IN_HISTORY) return this.read(() => this.reads.getHandle(workflowId, reply.runId ?? runId).getUpdateHandle<R>(updateId).result());
    if (reply.failure) throw new WorkflowUpdateFailedError(reply.failure.message, { code: reply.failure.code, message: reply.failure.message });
    if (!reply.payload) return undefined as R;
    return this.payloads ? this.payloads.fromPayload<R>(reply.payload) : this.commands.dataConverter.fromPayload<R>(reply.payload);
  }

  private async updateWithStart(update: string, options: UpdateWithStartOptions, waitForStage: 'Accepted' | 'Completed'): Promise<UpdateAnswer> {
    checkIdentifier(update, 'update name');
    const { updateArgs, updateId, timeout, workflowType, ...start } = options;
    const timeoutMs = timeout === undefined ? DEFAULT_UPDATE_WAIT_MS : waitOption(timeout, 'timeout');
    const call = { name: update, args: updateArgs ?? [], waitForStage, timeoutMs, identity: IDENTITY, ...(updateId ? { updateId } : {}) };
    return this.call(() => sendUpdateWithStart(this.commands, this.startOptions(workflowType, start), call));
  }

  private startOptions(workflowType: string, options: ClientStartOptions): StartOptions {
    return { ...options, namespace: this.namespace, workflowType } as StartOptions;
  }

  /** Writes one command for the workflow (its run, when given) and waits for the engine's answer. */
  private async send(workflowId: string, body: Parameters<CommandClient['envelope']>[2], runId: string | undefined, requestId?: string): Promise<Reply> {
    const command = this.commands.envelope(this.namespace, workflowId, body, { ...(runId ? { runId } : {}), ...(requestId ? { requestId } : {}) });
    return accepted(await this.call(() => this.commands.send(command, { awaitReply: true })));
  }

  /** Runs a Kafka call with its errors as the compatible client's. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw asClientError(error);
    }
  }

  /** Runs a read through the gateway; a gateway that does not answer is named, with what needs it. */
  private async read<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof TypeError && /fetch failed/.test(error.message)) {
        throw new WorkflowClientError('GATEWAY_UNREACHABLE', `${this.reads.workflowsUrl} does not answer: describe, list, count, history, queries and older runs' results are read through a gateway (Connection.connect({ brokers, address }))`, 503);
      }
      throw error;
    }
  }
}

/** A recorded failure as the gateway answers it in JSON: details decoded, causes too. */
function failureJson(failure: Failure, decode: (payload: NonNullable<Failure['details']>) => unknown): FailureJson {
  return {
    message: failure.message,
    code: failure.code,
    stackTrace: failure.stackTrace,
    nonRetryable: failure.nonRetryable,
    details: failure.details ? decode(failure.details) : null,
    cause: failure.cause ? failureJson(failure.cause, decode) : null,
  };
}
