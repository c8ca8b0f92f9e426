/**
 * The update routes (see README "Updates"):
 *
 * - `POST …/workflows/{id}/update/{name}` — body `{ args, updateId, runId, waitForStage, timeout }`;
 * - `POST …/workflows/{id}/update-with-start/{name}` — a start body (as for signal-with-start:
 *   `workflowType`, `taskQueue`, `args`, …) plus `updateArgs`, `updateId`, `waitForStage`, `timeout`;
 *   the conflict policy is always UseExisting;
 * - `GET …/workflows/{id}/updates/{updateId}?timeout=&runId=` — waits for an update sent before.
 *
 * Answers: 200 `{ result }` once completed, 202 once accepted (`waitForStage: "ACCEPTED"`),
 * 400 `UpdateRejected` with the validator's message, 422 `UpdateFailed` with the handler's failure,
 * 404 `WorkflowNotFound` / `UpdateNotFound`, 409 `WorkflowClosed` / `LimitExceeded`, 504 on timeout.
 * @module
 */
import { Router, type Request, type Response } from 'express';
import { LogbookError } from '../topics/errors.js';
import type { UpdateWorkflowExecutionLifecycleStage } from '../topics/schemas/common/v1-enums.js';
import { sendUpdate, sendUpdateWithStart, type UpdateAnswer } from '../sdk/client/update-sender.js';
import type { StartOptions } from '../sdk/client/start-options.js';
import { durationToMs } from '../sdk/workflow/duration.js';
import type { Engine } from './engine.js';
import { HttpError, optionalArray, requireString } from './http-errors.js';
import { toJsonView } from './json-views.js';

const API = '/api/v1/namespaces/:namespace/workflows/:workflowId';
const START_FIELDS = ['workflowIdReusePolicy', 'workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout', 'searchAttributes', 'memo', 'requestId'] as const;

/** Routes that send updates and wait for their outcome. */
export function updateRoutes(engine: Engine): Router {
  const router = Router();
  router.post(`${API}/update/:updateName`, async (req, res) => {
    const body = bodyOf(req);
    const answer = await sendUpdate(engine.client, {
      ...target(req), name: requireString(req.params.updateName, 'updateName'), args: optionalArray(body.args, 'args'),
      ...(typeof body.runId === 'string' ? { runId: body.runId } : {}), ...callOptions(body),
    });
    respond(engine, res, String(req.params.workflowId), answer);
  });
  router.post(`${API}/update-with-start/:updateName`, async (req, res) => {
    const body = bodyOf(req);
    const { namespace, workflowId } = target(req);
    const start: StartOptions = {
      namespace, workflowId, workflowType: requireString(body.workflowType, 'workflowType'), taskQueue: requireString(body.taskQueue, 'taskQueue'),
      args: optionalArray(body.args, 'args'),
      ...Object.fromEntries(START_FIELDS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]])),
    };
    const call = { name: requireString(req.params.updateName, 'updateName'), args: optionalArray(body.updateArgs, 'updateArgs'), ...callOptions(body) };
    const answer = await badInput(() => sendUpdateWithStart(engine.client, start, call));
    respond(engine, res, workflowId, answer);
  });
  router.get(`${API}/updates/:updateId`, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const answer = await sendUpdate(engine.client, {
      ...target(req), name: '', updateId: requireString(req.params.updateId, 'updateId'),
      ...(typeof query.runId === 'string' ? { runId: query.runId } : {}), ...callOptions({ timeout: query.timeout }),
    });
    respond(engine, res, String(req.params.workflowId), answer);
  });
  return router;
}

function bodyOf(req: Request): Record<string, unknown> {
  return (req.body ?? {}) as Record<string, unknown>;
}

function target(req: Request): { namespace: string; workflowId: string } {
  return { namespace: requireString(req.params.namespace, 'namespace'), workflowId: requireString(req.params.workflowId, 'workflowId') };
}

/** `updateId`, `waitForStage` (`ACCEPTED` / `COMPLETED`, any case) and `timeout` of a body. */
function callOptions(body: Record<string, unknown>): { updateId?: string; waitForStage?: UpdateWorkflowExecutionLifecycleStage; timeoutMs?: number; identity: string } {
  const options: { updateId?: string; waitForStage?: UpdateWorkflowExecutionLifecycleStage; timeoutMs?: number; identity: string } = { identity: 'http-gateway' };
  if (body.updateId !== undefined) options.updateId = requireString(body.updateId, 'updateId');
  if (body.waitForStage !== undefined) {
    const stage = String(body.waitForStage).toLowerCase();
    if (stage !== 'accepted' && stage !== 'completed') throw new HttpError(400, 'INVALID_ARGUMENT', `'waitForStage' must be ACCEPTED or COMPLETED, got ${String(body.waitForStage)}`);
    options.waitForStage = stage === 'accepted' ? 'Accepted' : 'Completed';
  }
  if (body.timeout !== undefined) options.timeoutMs = badInputSync(() => durationToMs(body.timeout as string | number, 'timeout'));
  return options;
}

function respond(engine: Engine, res: Response, workflowId: string, { updateId, reply }: UpdateAnswer): void {
  const base = { workflowId, runId: reply.runId, updateId };
  if (reply.kind === 'Error') throw new LogbookError(reply.failure?.code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the update');
  if (reply.kind === 'Accepted') {
    res.status(202).json({ ...base, stage: 'Accepted' });
    return;
  }
  if (reply.kind !== 'UpdateResult') throw new LogbookError('ENGINE_ERROR', `unexpected reply ${reply.kind} to update ${updateId}`);
  if (reply.failure) {
    const { message, code, nonRetryable } = reply.failure;
    res.status(422).json({ code: 'UpdateFailed', message, ...base, failure: { message, code, nonRetryable } });
    return;
  }
  res.json(toJsonView({ ...base, stage: 'Completed', result: reply.payload ?? null }, engine.dataConverter));
}

// A TypeError (bad duration, unserialisable argument, bad search attribute) is the caller's mistake.
function badInputSync<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TypeError) throw new HttpError(400, 'INVALID_ARGUMENT', error.message);
    throw error;
  }
}

async function badInput<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TypeError) throw new HttpError(400, 'INVALID_ARGUMENT', error.message);
    throw error;
  }
}
