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
 * 404 `WorkflowNotFound` / `UpdateNotFound`, 409 `WorkflowClosed` / `LimitExceeded`; a wait that
 * runs out first is 202 with the stage reached (`waitElapsed: true`).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { LogbookError } from '../topics/errors.js';
import type { UpdateWorkflowExecutionLifecycleStage } from '../topics/schemas/common/v1-enums.js';
import { DEFAULT_UPDATE_WAIT_MS, sendUpdate, sendUpdateWithStart, type UpdateAnswer } from '../sdk/client/update-sender.js';
import type { StartOptions } from '../sdk/client/start-options.js';
import { UPDATE_OUTCOME_IN_HISTORY } from '../processors/history/updates.js';
import type { Reply } from '../topics/schemas/reply/index.js';
import { waitOption } from '../sdk/client/option-rules.js';
import { assertValid, firstProblem, identifierProblem, namespaceProblem } from '../topics/validation/index.js';
import type { Engine } from './engine.js';
import { isWaitElapsed, standingAfterWait, updateStageOf, withinWaitAndGrace } from './long-polls.js';
import { HttpError, optionalArray, requireString } from './http-errors.js';
import { toJsonView } from './json-views.js';
import { Allow } from './auth/route-rules.js';

const API = '/api/v1/namespaces/:namespace/workflows/:workflowId';
const START_FIELDS = ['workflowIdReusePolicy', 'workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout', 'searchAttributes', 'memo', 'requestId', 'retryPolicy', 'cronSchedule'] as const;

/** Routes that send updates and wait for their outcome. */
export function updateRoutes(engine: Engine): Router {
  const router = Router();
  router.post(`${API}/update/:updateName`, Allow.writer, async (req, res) => {
    const body = bodyOf(req);
    const options = callOptions(body);
    const answer = await untilWaitElapsed(engine, res, target(req), options, () => sendUpdate(engine.client, {
      ...target(req), name: requireString(req.params.updateName, 'updateName'), args: optionalArray(body.args, 'args'),
      ...(typeof body.runId === 'string' ? { runId: body.runId } : {}), ...options,
    }));
    if (answer) await respond(engine, res, target(req), answer);
  });
  router.post(`${API}/update-with-start/:updateName`, Allow.writer, async (req, res) => {
    const body = bodyOf(req);
    const { namespace, workflowId } = target(req);
    const start: StartOptions = {
      namespace, workflowId, workflowType: requireString(body.workflowType, 'workflowType'), taskQueue: requireString(body.taskQueue, 'taskQueue'),
      args: optionalArray(body.args, 'args'),
      ...Object.fromEntries(START_FIELDS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]])),
    };
    const call = { name: requireString(req.params.updateName, 'updateName'), args: optionalArray(body.updateArgs, 'updateArgs'), ...callOptions(body) };
    const answer = await untilWaitElapsed(engine, res, { namespace, workflowId }, call, () => badInput(() => sendUpdateWithStart(engine.client, start, call)));
    if (answer) await respond(engine, res, { namespace, workflowId }, answer);
  });
  router.get(`${API}/updates/:updateId`, Allow.reader, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const updateId = requireString(req.params.updateId, 'updateId');
    const options = { ...callOptions({ timeout: query.timeout }), updateId };
    const answer = await untilWaitElapsed(engine, res, target(req), options, () => sendUpdate(engine.client, {
      ...target(req), name: '',
      ...(typeof query.runId === 'string' ? { runId: query.runId } : {}), ...options,
    }));
    if (answer) await respond(engine, res, target(req), answer);
  });
  return router;
}

function bodyOf(req: Request): Record<string, unknown> {
  return (req.body ?? {}) as Record<string, unknown>;
}

/** The namespace and workflow id of the path, checked against the rules every client applies. */
function target(req: Request): { namespace: string; workflowId: string } {
  const { namespace, workflowId } = req.params;
  assertValid(firstProblem(() => namespaceProblem(namespace), () => identifierProblem(workflowId, 'workflowId')));
  return { namespace: namespace as string, workflowId: workflowId as string };
}

/** `updateId`, `waitForStage` (`ACCEPTED` / `COMPLETED`, any case) and `timeout` of a body. */
function callOptions(body: Record<string, unknown>): { updateId: string; waitForStage?: UpdateWorkflowExecutionLifecycleStage; timeoutMs?: number; identity: string } {
  // Chosen here when the caller names none, so an answer after the wait ran out can name it.
  const options: { updateId: string; waitForStage?: UpdateWorkflowExecutionLifecycleStage; timeoutMs?: number; identity: string } = { identity: 'http-gateway', updateId: randomUUID() };
  if (body.updateId !== undefined) options.updateId = requireString(body.updateId, 'updateId');
  if (body.waitForStage !== undefined) {
    const stage = String(body.waitForStage).toLowerCase();
    if (stage !== 'accepted' && stage !== 'completed') throw new HttpError(400, 'INVALID_ARGUMENT', `'waitForStage' must be ACCEPTED or COMPLETED, got ${String(body.waitForStage)}`);
    options.waitForStage = stage === 'accepted' ? 'Accepted' : 'Completed';
  }
  if (body.timeout !== undefined) options.timeoutMs = waitOption(body.timeout as string | number, 'timeout');
  return options;
}

/**
 * The reply with the outcome read from history when the run's state no longer keeps it (a repeated
 * update id of an old or large outcome, see `processors/history/update-registry.ts`).
 */
async function withOutcomeFromHistory(engine: Engine, namespace: string, workflowId: string, reply: Reply): Promise<Reply> {
  const failure = reply.failure;
  if (reply.kind !== 'UpdateResult' || failure?.code !== UPDATE_OUTCOME_IN_HISTORY || !failure.details || !reply.runId) return reply;
  const { completedEventId } = JSON.parse(failure.details.data.toString('utf8')) as { completedEventId: number };
  const events = await engine.history(namespace, workflowId, reply.runId, { untilEventId: completedEventId });
  const event = events.find((e) => e.eventId === completedEventId);
  if (event?.attributes.type !== 'WorkflowExecutionUpdateCompleted') {
    throw new LogbookError('HISTORY_MISMATCH', `event ${completedEventId} of run ${reply.runId} is not the WorkflowExecutionUpdateCompleted the run points at`);
  }
  return { ...reply, payload: event.attributes.result, failure: event.attributes.failure };
}

async function respond(engine: Engine, res: Response, run: { namespace: string; workflowId: string }, answer: UpdateAnswer): Promise<void> {
  const { updateId } = answer;
  const { workflowId } = run;
  const reply = await withOutcomeFromHistory(engine, run.namespace, workflowId, answer.reply);
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

/**
 * Runs an update call; when the caller's wait runs out first, answers 202 with the stage the run's
 * standing shows (`Admitted`, `Accepted`, or `Unknown` when the run holds no such update in flight)
 * and resolves undefined — as Temporal answers a long poll whose time ran out, not as an error.
 * It answers within the wait plus a grace (withinWaitAndGrace), or 503 while a failover holds it.
 */
async function untilWaitElapsed(engine: Engine, res: Response, run: { namespace: string; workflowId: string }, call: { updateId: string; timeoutMs?: number }, send: () => Promise<UpdateAnswer>): Promise<UpdateAnswer | undefined> {
  const { updateId } = call;
  return withinWaitAndGrace(engine, run, call.timeoutMs ?? DEFAULT_UPDATE_WAIT_MS, async () => {
    try {
      return await send();
    } catch (error) {
      if (!isWaitElapsed(error)) throw error;
      const standing = await standingAfterWait(engine, run.namespace, run.workflowId);
      res.status(202).json({ workflowId: run.workflowId, runId: standing.runId, updateId, stage: updateStageOf(standing, updateId), waitElapsed: true });
      return undefined;
    }
  });
}

// A TypeError (an unserialisable argument) is the caller's mistake.
async function badInput<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TypeError) throw new HttpError(400, 'INVALID_ARGUMENT', error.message);
    throw error;
  }
}
