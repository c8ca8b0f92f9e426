/**
 * Sending updates through a {@link CommandClient} (next to Kafka; the gateway uses it): an
 * UpdateWorkflowExecution command, or update-with-start as one start command that carries the
 * update (see `processors/history/update-with-start.ts`). Both wait for the engine's reply at the
 * requested stage: `Accepted`, or `UpdateResult` with the handler's result or failure; a refusal
 * (validator rejection `UpdateRejected`, `WorkflowClosed`, `LimitExceeded`, …) is an `Error` reply.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { UpdateWorkflowExecutionLifecycleStage } from '../../topics/schemas/common/v1-enums.js';
import type { Reply } from '../../topics/schemas/reply/index.js';
import { encodeUpdateWithStart, UPDATE_WITH_START_HEADER } from '../../topics/schemas/command/update-with-start-header.js';
import type { CommandClient } from './command-client.js';
import { startRequest, type StartOptions } from './start-options.js';

/** One update call. */
/** How long an update call waits for its stage when the caller names no timeout. */
export const DEFAULT_UPDATE_WAIT_MS = 60_000;

export interface UpdateCall {
  readonly namespace?: string;
  readonly workflowId: string;
  /** The run to update; default the current one. */
  readonly runId?: string;
  /** The handler's name; empty only to wait for an update the run already knows (by `updateId`). */
  readonly name: string;
  readonly args?: readonly unknown[];
  /** Deduplicates the update: a repeated id gets the same outcome. Default a fresh id. */
  readonly updateId?: string;
  /** Answer once the update is accepted, or (default) once it completed. */
  readonly waitForStage?: UpdateWorkflowExecutionLifecycleStage;
  /** How long to wait for the reply; default 60 s (then `REPLY_TIMEOUT`). */
  readonly timeoutMs?: number;
  readonly identity?: string;
}

/** The reply to an update, and the update id it concerns. */
export interface UpdateAnswer {
  readonly updateId: string;
  readonly reply: Reply;
}

function requestOf(client: CommandClient, call: Pick<UpdateCall, 'args' | 'identity' | 'name'>, updateId: string) {
  const args = (call.args ?? []).map((a) => client.dataConverter.toPayload(a));
  return { updateId, identity: call.identity ?? 'client', name: call.name, header: {}, args };
}

/** Sends an update and waits for its reply. */
export async function sendUpdate(client: CommandClient, call: UpdateCall): Promise<UpdateAnswer> {
  const updateId = call.updateId ?? randomUUID();
  const body = { type: 'UpdateWorkflowExecution' as const, request: requestOf(client, call, updateId), waitForStage: call.waitForStage ?? 'Completed' };
  const command = client.envelope(call.namespace ?? 'default', call.workflowId, body, call.runId ? { runId: call.runId } : {});
  const reply = await client.send(command, { awaitReply: true, timeoutMs: call.timeoutMs ?? DEFAULT_UPDATE_WAIT_MS });
  return { updateId, reply: reply! };
}

/**
 * Starts the workflow unless a run is open (conflict policy UseExisting, whatever `start` says)
 * and delivers the update to the run, in one command; waits for the update's reply.
 */
export async function sendUpdateWithStart(client: CommandClient, start: StartOptions, call: Omit<UpdateCall, 'workflowId' | 'runId' | 'namespace'>): Promise<UpdateAnswer> {
  const updateId = call.updateId ?? randomUUID();
  const request = startRequest({ ...start, workflowIdConflictPolicy: 'UseExisting' }, client.dataConverter, call.identity ?? 'client');
  const carrier = encodeUpdateWithStart({ request: requestOf(client, call, updateId), waitForStage: call.waitForStage ?? 'Completed' });
  const body = { type: 'StartWorkflowExecution' as const, ...request, header: { ...request.header, [UPDATE_WITH_START_HEADER]: carrier } };
  const command = client.envelope(start.namespace ?? 'default', start.workflowId, body, start.requestId ? { requestId: start.requestId } : {});
  const reply = await client.send(command, { awaitReply: true, timeoutMs: call.timeoutMs ?? DEFAULT_UPDATE_WAIT_MS });
  return { updateId, reply: reply! };
}
