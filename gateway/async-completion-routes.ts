/**
 * Async activity completion (Temporal's `client.activity.*`): an activity that threw
 * `CompleteAsyncError` is completed, failed, heartbeated or reported cancelled here by whoever
 * holds its task token — or its workflow id, run id and activity id. The gateway checks that the
 * attempt is still pending, writes the input as the worker would have and waits for the engine to
 * take or refuse it; a node that does not own the run's shard forwards the call to the one that does.
 *
 *   POST /api/v1/namespaces/:namespace/activities/complete             { taskToken | workflowId, runId?, activityId; result? }
 *   POST /api/v1/namespaces/:namespace/activities/fail                 { …; failure: { message, type?, nonRetryable?, details? } }
 *   POST /api/v1/namespaces/:namespace/activities/heartbeat            { …; details? }
 *   POST /api/v1/namespaces/:namespace/activities/report-cancellation  { …; details? }
 * @module
 */
import { Router, type Request } from 'express';
import { decodeActivityTaskToken } from '../topics/activity-task-token.js';
import type { Payload } from '../topics/payload/index.js';
import type { CommandBody } from '../topics/schemas/command/index.js';
import type { Failure } from '../topics/schemas/common/v1-records.js';
import { assertValid, firstProblem, identifierProblem, namespaceProblem, optionalIdentifierProblem } from '../topics/validation/index.js';
import type { Engine } from './engine.js';
import { forwardable } from './forwarding.js';
import { HttpError, requireString } from './http-errors.js';
import { Allow } from './auth/route-rules.js';

const API = '/api/v1/namespaces/:namespace/activities';
/** The identity async completions carry into history. */
const IDENTITY = 'async-completion';

/** The attempt a call names. */
interface AttemptRef {
  readonly workflowId: string;
  readonly runId: string;
  readonly scheduledEventId: number;
  readonly attempt: number;
  /** The workflow asked the activity to cancel (a heartbeat's caller learns it from the answer). */
  readonly cancelRequested: boolean;
}

/** How long a call waits for the engine to take or refuse the input. */
const ANSWER_WAIT_MS = 10_000;

/** What the engine's refusal of an async completion means to the caller. */
const REFUSALS: Readonly<Record<string, { status: number; code: string }>> = {
  StaleActivityResult: { status: 404, code: 'ActivityNotFound' },
  ActivityNotCancelRequested: { status: 409, code: 'ActivityNotCancelRequested' },
};

/** The async completion routes; `selfEndpoint` is this node's, for forwarding to the shard's owner. */
export function asyncCompletionRoutes(engine: Engine, selfEndpoint: string): Router {
  const router = Router();
  const route = (action: string, body: (fields: Record<string, unknown>) => CommandBodyWithoutRef) =>
    router.post(`${API}/${action}`, Allow.writer, forwardable({ selfEndpoint, peers: engine.peers }, async (req, res) => {
      const namespace = namespaceOf(req);
      const fields = (req.body ?? {}) as Record<string, unknown>;
      const made = body(fields);
      const ref = await pendingAttempt(engine, namespace, fields);
      const command = engine.client.envelope(namespace, ref.workflowId, { ...made, scheduledEventId: ref.scheduledEventId, attempt: ref.attempt, identity: IDENTITY } as CommandBody, { runId: ref.runId });
      // Waited for: an attempt that moved on since the check above (retried, timed out) is refused, not lost.
      const reply = await engine.client.send(command, { awaitReply: true, timeoutMs: ANSWER_WAIT_MS });
      if (!reply) throw new HttpError(504, 'REPLY_TIMEOUT', `the engine did not answer within ${ANSWER_WAIT_MS} ms; the input may still be applied`);
      if (reply.kind === 'Error') {
        const refusal = REFUSALS[reply.failure?.code ?? ''] ?? { status: 409, code: reply.failure?.code ?? 'Refused' };
        throw new HttpError(refusal.status, refusal.code, reply.failure?.message ?? 'the engine refused the input');
      }
      res.status(202).json({ workflowId: ref.workflowId, runId: ref.runId, scheduledEventId: ref.scheduledEventId, attempt: ref.attempt, cancelRequested: ref.cancelRequested });
    }));
  // No `result` field completes the activity with undefined (a void activity), as a worker would.
  route('complete', (f) => ({ type: 'ActivityTaskCompleted', result: engine.dataConverter.toPayload('result' in f ? f.result : undefined) }));
  route('fail', (f) => ({ type: 'ActivityTaskFailed', failure: failureOf(engine, f.failure), lastHeartbeatDetails: null }));
  route('heartbeat', (f) => ({ type: 'ActivityTaskHeartbeat', details: detailsOf(engine, f.details) }));
  route('report-cancellation', (f) => ({ type: 'ActivityTaskCanceled', details: detailsOf(engine, f.details) }));
  return router;
}

type CommandBodyWithoutRef = { type: string } & Record<string, unknown>;

function namespaceOf(req: Request): string {
  const { namespace } = req.params;
  assertValid(namespaceProblem(namespace));
  return namespace as string;
}

/**
 * The attempt named by a task token, or by workflow id (run id) and activity id; it must be
 * pending on the run's current state, so a stale token is a 404 rather than a silent no-op.
 * @throws HttpError 400 for a malformed token or ids, 404 `ActivityNotFound`
 */
async function pendingAttempt(engine: Engine, namespace: string, fields: Record<string, unknown>): Promise<AttemptRef> {
  let wanted: { workflowId: string; runId: string | undefined; activityId: string; scheduledEventId?: number; attempt?: number };
  if (fields.taskToken !== undefined) {
    if (typeof fields.taskToken !== 'string') throw new HttpError(400, 'InvalidArgument', "'taskToken' must be the base64 of an activity's task token");
    const token = decodeActivityTaskToken(fields.taskToken);
    if (token.namespace !== namespace) throw new HttpError(400, 'InvalidArgument', `taskToken: issued for namespace ${token.namespace}, not ${namespace}`);
    wanted = token;
  } else {
    const workflowId = requireString(fields.workflowId, 'workflowId');
    const activityId = requireString(fields.activityId, 'activityId');
    const runId = typeof fields.runId === 'string' ? fields.runId : undefined;
    assertValid(firstProblem(() => identifierProblem(workflowId, 'workflowId'), () => identifierProblem(activityId, 'activityId'), () => optionalIdentifierProblem(runId, 'runId')));
    wanted = { workflowId, runId, activityId };
  }
  const state = await engine.describe(namespace, wanted.workflowId);
  const notFound = () => new HttpError(404, 'ActivityNotFound', `activity ${wanted.activityId} of workflow ${wanted.workflowId} is not pending${wanted.attempt ? ` in attempt ${wanted.attempt}` : ''} (completed, timed out, retried or the run closed)`);
  if (!state || state.executionInfo.status !== 'Running' || (wanted.runId !== undefined && wanted.runId !== state.executionInfo.runId)) throw notFound();
  const pending = state.pendingActivities.find((a) => a.activityId === wanted.activityId && (wanted.scheduledEventId === undefined || a.scheduledEventId === wanted.scheduledEventId));
  if (!pending || (wanted.attempt !== undefined && pending.attempt !== wanted.attempt)) throw notFound();
  return { workflowId: wanted.workflowId, runId: state.executionInfo.runId, scheduledEventId: pending.scheduledEventId, attempt: pending.attempt, cancelRequested: pending.cancelRequested };
}

function detailsOf(engine: Engine, details: unknown): Payload | null {
  return details === undefined || details === null ? null : engine.dataConverter.toPayload(details);
}

/** The failure of a `fail` call, as the worker would have written it. */
function failureOf(engine: Engine, value: unknown): Failure {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'InvalidArgument', "'failure' must be an object with a 'message'");
  const f = value as Record<string, unknown>;
  const message = requireString(f.message, 'failure.message');
  if (f.type !== undefined && typeof f.type !== 'string') throw new HttpError(400, 'InvalidArgument', "'failure.type' must be a string");
  if (f.nonRetryable !== undefined && typeof f.nonRetryable !== 'boolean') throw new HttpError(400, 'InvalidArgument', "'failure.nonRetryable' must be a boolean");
  const details = Array.isArray(f.details) && f.details.length > 0 ? engine.dataConverter.toPayload(f.details) : null;
  return { message, source: 'TypeScriptSDK', stackTrace: '', code: (f.type as string | undefined) ?? 'Error', nonRetryable: f.nonRetryable === true, details, cause: null };
}
