/**
 * Updates for the {@link WorkflowClient} (over the gateway's update routes, Temporal's API):
 * `handle.executeUpdate`, `handle.startUpdate` + `WorkflowUpdateHandle.result()`,
 * `handle.getUpdateHandle(updateId)` and `client.executeUpdateWithStart`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { LogbookError } from '../../topics/errors.js';
import { clientErrorOf, exchangeJson, WorkflowClientError } from './gateway-call.js';
import { checkIdentifier, waitOption } from './option-rules.js';
import type { ClientStartOptions } from './workflow-client.js';

/** An update as `defineUpdate` names it in workflow code (only its name is used; the types carry through). */
export interface UpdateReference<R = unknown, Args extends unknown[] = unknown[]> {
  readonly name: string;
  readonly __ret?: R;
  readonly __args?: Args;
}

/**
 * The update failed: the workflow's validator rejected it (`cause.code` is `UpdateRejected`, nothing
 * was recorded) or its handler threw (`cause` is the handler's failure, e.g. its ApplicationFailure type).
 */
export class WorkflowUpdateFailedError extends LogbookError {
  constructor(
    message: string,
    override readonly cause: { code: string; message: string },
  ) {
    super('WorkflowUpdateFailed', message);
  }
}

/** Options of one update call. */
export interface UpdateOptions<Args extends unknown[] = unknown[]> {
  readonly args?: Args;
  /** Deduplicates the update (a repeated id gets the same outcome); default a fresh id. */
  readonly updateId?: string;
  /** How long the gateway waits for the outcome; default 60 s, at most 1 h. */
  readonly timeout?: string | number;
}

/** An update sent to a run, whose outcome can be awaited (again) later. */
export interface WorkflowUpdateHandle<R = unknown> {
  readonly updateId: string;
  readonly workflowId: string;
  readonly workflowRunId: string | undefined;
  /** Waits for the update to complete: its result, or a {@link WorkflowUpdateFailedError}. */
  result(): Promise<R>;
}

/** The update methods of a workflow handle. */
export interface WorkflowUpdateMethods {
  /** Sends an update and waits for its result (Temporal's `executeUpdate`). */
  executeUpdate<R = unknown, Args extends unknown[] = unknown[]>(update: string | UpdateReference<R, Args>, options?: UpdateOptions<Args>): Promise<R>;
  /** Sends an update and returns once the workflow accepted it (`waitForStage: 'ACCEPTED'`, the only stage offered). */
  startUpdate<R = unknown, Args extends unknown[] = unknown[]>(
    update: string | UpdateReference<R, Args>,
    options: UpdateOptions<Args> & { waitForStage: 'ACCEPTED' },
  ): Promise<WorkflowUpdateHandle<R>>;
  /** A handle on an update sent before (by any client), by its id. */
  getUpdateHandle<R = unknown>(updateId: string): WorkflowUpdateHandle<R>;
}

/** The status and body of one call of the update API. */
export interface Answer {
  status: number;
  json: { code?: string; message?: string; runId?: string; result?: unknown; failure?: { code: string; message: string }; stage?: string; waitElapsed?: boolean };
}

/** One call of the update API; a client with payload codecs passes one that encodes the body and decodes the answer. */
export type UpdateExchange = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<Answer>;

const plainExchange: UpdateExchange = (method, url, body) => exchangeJson<Answer['json']>(method, url, body);

/** The answer's result, or the error it stands for. */
function outcome<R>(answer: Answer): R {
  const { status, json } = answer;
  // The wait ran out before the stage asked for: the update goes on; to this caller it is a timeout, as before.
  if (json.waitElapsed) throw new WorkflowClientError('REPLY_TIMEOUT', `the update did not reach the stage asked for within the wait (it is ${json.stage ?? 'Unknown'})`, 504);
  if (status === 200 || status === 202) return json.result as R;
  if (json.code === 'UpdateRejected') throw new WorkflowUpdateFailedError(json.message ?? 'update rejected', { code: 'UpdateRejected', message: json.message ?? '' });
  if (json.code === 'UpdateFailed') throw new WorkflowUpdateFailedError(json.message ?? 'update failed', json.failure ?? { code: 'UpdateFailed', message: json.message ?? '' });
  throw clientErrorOf(status, json);
}

const nameOf = (update: string | UpdateReference<unknown, never[]>): string => (typeof update === 'string' ? update : update.name);

/** The checks of an update call before it is sent: its name, its id and how long it waits (at most 1 h). */
function checkUpdateCall(update: string | UpdateReference<unknown, never[]>, options: { updateId?: string; timeout?: string | number }): void {
  checkIdentifier(nameOf(update), 'update name');
  if (options.updateId !== undefined) checkIdentifier(options.updateId, 'updateId');
  if (options.timeout !== undefined) waitOption(options.timeout, 'timeout');
}

/** The update methods of the handle on `workflowUrl` (`…/workflows/{id}`), optionally pinned to a run. */
export function workflowUpdateMethods(workflowUrl: string, workflowId: string, runId: string | undefined, exchange: UpdateExchange = plainExchange): WorkflowUpdateMethods {
  const run = runId ? { runId } : {};
  const send = (update: string | UpdateReference<unknown, never[]>, options: UpdateOptions, waitForStage: string) => {
    checkUpdateCall(update, options);
    const updateId = options.updateId ?? randomUUID();
    const body = { ...run, args: options.args ?? [], updateId, waitForStage, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) };
    return { updateId, answer: exchange('POST', `${workflowUrl}/update/${encodeURIComponent(nameOf(update))}`, body) };
  };
  const handleOf = <R>(updateId: string, workflowRunId: string | undefined): WorkflowUpdateHandle<R> => ({
    updateId, workflowId, workflowRunId,
    result: async () => outcome<R>(await exchange('GET', `${workflowUrl}/updates/${encodeURIComponent(updateId)}${runId ? `?runId=${encodeURIComponent(runId)}` : ''}`)),
  });
  return {
    executeUpdate: async <R>(update: string | UpdateReference<R, never[]>, options: UpdateOptions = {}) => outcome<R>(await send(update, options, 'COMPLETED').answer),
    startUpdate: async <R>(update: string | UpdateReference<R, never[]>, options: UpdateOptions) => {
      const { updateId, answer } = send(update, options, 'ACCEPTED');
      const accepted = await answer;
      outcome(accepted);
      return handleOf<R>(updateId, accepted.json.runId ?? runId);
    },
    getUpdateHandle: <R>(updateId: string) => {
      checkIdentifier(updateId, 'updateId');
      return handleOf<R>(updateId, runId);
    },
  } as WorkflowUpdateMethods;
}

/** Options of {@link executeUpdateWithStart}: the start, and the update's arguments and id. */
export interface UpdateWithStartOptions<Args extends unknown[] = unknown[]> extends ClientStartOptions {
  readonly workflowType: string;
  readonly updateArgs?: Args;
  readonly updateId?: string;
  readonly timeout?: string | number;
}

/**
 * Starts the workflow unless a run of it is open, and delivers the update to the run, atomically
 * (one command); resolves with the update's result (Temporal's `executeUpdateWithStart`).
 */
export async function executeUpdateWithStart<R>(workflowsUrl: string, update: string | UpdateReference<R, never[]>, options: UpdateWithStartOptions, exchange: UpdateExchange = plainExchange): Promise<R> {
  checkUpdateCall(update, options);
  const { updateArgs, updateId, workflowId, ...start } = options;
  const body = { ...start, updateArgs: updateArgs ?? [], updateId: updateId ?? randomUUID(), waitForStage: 'COMPLETED' };
  return outcome<R>(await exchange('POST', `${workflowsUrl}/${encodeURIComponent(workflowId)}/update-with-start/${encodeURIComponent(nameOf(update))}`, body));
}

/**
 * As {@link executeUpdateWithStart}, but resolves once the workflow accepted the update (Temporal's
 * `startUpdateWithStart`), with the update's id and the run it went to.
 */
export async function startUpdateWithStart(workflowsUrl: string, update: string | UpdateReference<unknown, never[]>, options: UpdateWithStartOptions, exchange: UpdateExchange = plainExchange): Promise<{ updateId: string; runId: string | undefined }> {
  checkUpdateCall(update, options);
  const { updateArgs, updateId: given, workflowId, ...start } = options;
  const updateId = given ?? randomUUID();
  const body = { ...start, updateArgs: updateArgs ?? [], updateId, waitForStage: 'ACCEPTED' };
  const answer = await exchange('POST', `${workflowsUrl}/${encodeURIComponent(workflowId)}/update-with-start/${encodeURIComponent(nameOf(update))}`, body);
  outcome(answer);
  return { updateId, runId: answer.json.runId };
}
