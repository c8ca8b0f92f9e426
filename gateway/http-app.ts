import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { ReplyTimeoutError } from '../topics/replies/reply-listener.js';
import type { Registry } from 'prom-client';
import { LogbookError } from '../topics/errors.js';
import type { Reply } from '../topics/schemas/reply/index.js';
import { startRequest } from '../sdk/client/start-options.js';
import { waitOption } from '../sdk/client/option-rules.js';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../sdk/client/query-sender.js';
import { assertValid, firstProblem, identifierProblem, namespaceProblem } from '../topics/validation/index.js';
import type { Engine } from './engine.js';
import { ShardUnavailableError } from './engine.js';
import { errorHandler, HttpError, optionalArray, requireString } from './http-errors.js';
import { jsonBody } from './json-body.js';
import { AUDIT_WRITER, auditTrail } from './audit/audit-trail.js';
import { AuditWriter } from './audit/audit-writer.js';
import { auditRoutes } from './audit/audit-routes.js';
import { toJsonView } from './json-views.js';
import { namespaceRoutes } from './namespace-routes.js';
import { ingressRoutes } from './ingress-routes.js';
import { resetRoutes } from './reset-route.js';
import { awaitRunResult, closedRunOutcome } from './run-outcome.js';
import { forwardable } from './forwarding.js';
import { Allow, AUTHENTICATOR, assertServesRunQueue, authenticateRequest } from './auth/route-rules.js';
import { Authenticator } from './auth/authenticator.js';
import type { AuthOptions } from './auth/auth-options.js';
import { isWaitElapsed, standingAfterWait, withinWaitAndGrace } from './long-polls.js';

/** How long a result wait waits once more for a run that closed as the first wait ran out (its answer is immediate). */
const CLOSED_RUN_ANSWER_MS = 5_000;
/** How long `GET …/result` waits when the caller names no timeout. */
const RESULT_WAIT_MS = 60_000;
import { uiRoutes } from './ui/ui-routes.js';
import { workerReportRoutes } from './worker-report-routes.js';
import type { WorkerReport } from '../topics/wire/worker-report.js';
import { taskRoutes } from './task-endpoints/task-routes.js';
import { visibilityRoutes } from './visibility-routes.js';
import { asyncCompletionRoutes } from './async-completion-routes.js';
import { updateRoutes } from './update-routes.js';
import { scheduleRoutes } from './schedules/schedule-routes.js';
import { toRawView } from '../topics/wire/raw-view.js';
import { taskQueueDescriptionRoutes } from './task-endpoints/task-queue-description.js';

/** What the HTTP app serves. */
export interface HttpAppOptions {
  readonly engine: Engine;
  readonly metrics: Registry;
  /** This node's own endpoint, so a read forwarded to itself is not forwarded again. */
  readonly selfEndpoint: string;
  /** The key that signs the HTTP task endpoints' tokens; every gateway of a deployment needs the same one (default: a random key, one gateway). */
  readonly taskTokenKey?: Buffer;
  /** Authentication and authorisation (`--auth`); without it every caller may do everything, as in development. */
  readonly auth?: AuthOptions;
  /** Where worker processes' reports go (the node's metrics); without it they are taken and dropped. */
  readonly workerReports?: (report: WorkerReport) => void;
}

const API = '/api/v1/namespaces/:namespace/workflows';

/**
 * The gateway's HTTP API (built without listening; the caller listens). Client operations write
 * commands to the command topic and wait for the engine's reply; reads are served by the shard's
 * owner, forwarded there when this node does not own the shard.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { engine } = options;
  const node = { selfEndpoint: options.selfEndpoint, peers: engine.peers };
  const app = express();
  if (options.auth) app.locals[AUTHENTICATOR] = new Authenticator(options.auth, engine.peers);
  // First, so calls refused by any later middleware (a malformed body, a missing token) are audited too.
  const auditWriter = new AuditWriter({ log: engine.log, catalog: engine.catalog, serde: engine.serde, metrics: options.metrics });
  app.locals[AUDIT_WRITER] = auditWriter;
  app.use(auditTrail(auditWriter, options.selfEndpoint, engine.peers));
  // Before the body is read: a caller without a credential gets 401 without its body being parsed.
  app.use('/api/v1', authenticateRequest);
  app.use(jsonBody());

  app.use(uiRoutes());
  app.use(workerReportRoutes(options.workerReports));
  // Liveness: the process answers; with where each shard held here stands.
  app.get('/healthz', Allow.public, (_req, res) => {
    res.json({ status: 'ok', shards: engine.node.ownedShards(), states: engine.node.shardReports() });
  });
  // Readiness: every shard held here RUNNING, none failing repeatedly, no shard without an owner.
  app.get('/readyz', Allow.public, async (_req, res) => {
    const readiness = await engine.health.readiness();
    if (!readiness.ready) res.setHeader('retry-after', '1');
    res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'not ready', reasons: readiness.reasons, shards: readiness.shards });
  });
  app.get('/metrics', Allow.deploymentReader, async (_req, res) => {
    res.setHeader('content-type', options.metrics.contentType);
    res.send(await options.metrics.metrics());
  });
  app.use(namespaceRoutes(engine));

  app.post(API, Allow.writer, async (req, res) => {
    const namespace = requireString(req.params.namespace, 'namespace');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const start = startFromBody(engine, namespace, requireString(body.workflowId, 'workflowId'), body);
    const command = engine.client.envelope(namespace, body.workflowId as string, { type: 'StartWorkflowExecution', ...start }, typeof body.requestId === 'string' ? { requestId: body.requestId } : {});
    const reply = await replyOrThrow(await engine.client.send(command, { awaitReply: true }));
    res.status(reply.kind === 'StartAccepted' ? 201 : 200).json({ workflowId: body.workflowId, runId: reply.runId, started: reply.kind === 'StartAccepted' });
  });

  app.post(`${API}/:workflowId/signal-with-start`, Allow.writer, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const start = startFromBody(engine, namespace, workflowId, body);
    const signalInput = optionalArray(body.signalArgs, 'signalArgs').map((a) => engine.dataConverter.toPayload(a));
    const command = engine.client.envelope(
      namespace,
      workflowId,
      { type: 'SignalWithStartWorkflowExecution', start, signalName: requireString(body.signalName, 'signalName'), signalInput, signalHeader: {} },
      typeof body.requestId === 'string' ? { requestId: body.requestId } : {},
    );
    const reply = await replyOrThrow(await engine.client.send(command, { awaitReply: true }));
    res.status(reply.kind === 'StartAccepted' ? 201 : 200).json({ workflowId, runId: reply.runId, started: reply.kind === 'StartAccepted' });
  });

  app.post(`${API}/:workflowId/signals/:signalName`, Allow.writer, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const input = optionalArray(body.args, 'args').map((a) => engine.dataConverter.toPayload(a));
    const signal = { type: 'SignalWorkflowExecution' as const, signalName: requireString(req.params.signalName, 'signalName'), input, identity: 'http-gateway', header: {}, externalInitiator: null, childWorkflowOnly: false };
    const command = engine.client.envelope(namespace, workflowId, signal, runAndRequest(body));
    await replyOrThrow(await engine.client.send(command, { awaitReply: true }));
    res.status(202).json({ workflowId, signal: req.params.signalName });
  });

  app.post(`${API}/:workflowId/cancel`, Allow.writer, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const cancel = { type: 'RequestCancelWorkflowExecution' as const, identity: 'http-gateway', reason: typeof body.reason === 'string' ? body.reason : '', externalInitiator: null, childWorkflowOnly: false };
    await replyOrThrow(await engine.client.send(engine.client.envelope(namespace, workflowId, cancel, runAndRequest(body)), { awaitReply: true }));
    res.status(202).json({ workflowId, cancelRequested: true });
  });

  app.post(`${API}/:workflowId/terminate`, Allow.writer, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const terminate = { type: 'TerminateWorkflowExecution' as const, reason: typeof body.reason === 'string' ? body.reason : '', details: null, identity: 'http-gateway' };
    await replyOrThrow(await engine.client.send(engine.client.envelope(namespace, workflowId, terminate, runAndRequest(body)), { awaitReply: true }));
    res.status(202).json({ workflowId, terminated: true });
  });

  // A query never goes through the history shard: the engine reads the run's state, sends the query
  // to the workers of its task queue and waits for their answer (see sdk/client/query-sender.ts).
  app.post(`${API}/:workflowId/query/:queryName`, Allow.reader, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const args = optionalArray(body.args, 'args');
    const timeoutMs = body.timeout === undefined ? undefined : waitOption(body.timeout as string | number, 'timeout');
    const runId = typeof body.runId === 'string' ? body.runId : undefined;
    const queryName = requireString(req.params.queryName, 'queryName');
    const query = () => engine.client.query(workflowId, queryName, args, { namespace, ...(runId ? { runId } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    const result = await withinWaitAndGrace(engine, { namespace, workflowId }, timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS, query);
    // A handler that returned undefined answers without `result`, so a client can tell it from null.
    res.json(toJsonView({ workflowId, queryName, ...(result === undefined ? {} : { result }) }, engine.dataConverter));
  });

  // Forwardable: an older run of a continue-as-new chain is answered from the owner's store.
  app.get(`${API}/:workflowId/result`, Allow.reader, forwardable(node, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const timeoutMs = req.query.timeout === undefined ? RESULT_WAIT_MS : waitOption(String(req.query.timeout), 'timeout');
    const followRuns = req.query.followRuns !== 'false' && req.query.followRuns !== '0';
    const runId = typeof req.query.runId === 'string' ? req.query.runId : undefined;
    const wait = { ...(runId ? { runId } : {}), followRuns };
    const answer = await withinWaitAndGrace(engine, { namespace, workflowId }, timeoutMs, () => awaitRunResult(engine, namespace, workflowId, { ...wait, timeoutMs }).catch(async (error: unknown) => {
      if (!isWaitElapsed(error)) throw error;
      // The caller's wait ran out: say where the run stands (a shard that cannot say answers 503).
      const info = await standingAfterWait(engine, namespace, workflowId);
      if (info.status !== 'Running' || (runId !== undefined && runId !== info.runId && !followRuns)) {
        return awaitRunResult(engine, namespace, workflowId, { ...wait, timeoutMs: CLOSED_RUN_ANSWER_MS }).catch(async (again: unknown) => {
          // A busy shard did not answer in time either: the closed run's outcome is in its history.
          const outcome = isWaitElapsed(again) && info.status !== 'Running' ? await closedRunOutcome(engine, namespace, workflowId, info.runId) : undefined;
          if (!outcome) throw again;
          return { runId: info.runId, status: outcome.row.status, result: outcome.result, failure: outcome.failure, newExecutionRunId: outcome.newExecutionRunId };
        });
      }
      return { runId: info.runId, status: info.status, result: null, failure: null, newExecutionRunId: null };
    }));
    res.json(toJsonView({ workflowId, ...answer }, engine.dataConverter));
  }, resultWaitMs));

  app.get(`${API}/:workflowId`, Allow.reader, forwardable(node, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const state = await engine.describe(namespace, workflowId);
    if (!state) throw new HttpError(404, 'WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
    const runId = typeof req.query.runId === 'string' ? req.query.runId : state.executionInfo.runId;
    if (runId === state.executionInfo.runId) {
      res.json(toJsonView(state, engine.dataConverter));
      return;
    }
    // An older run (continued as new, or before the workflow id was reused): its row and outcome.
    const outcome = await closedRunOutcome(engine, namespace, workflowId, runId);
    if (!outcome) throw new HttpError(404, 'RunNotFound', `run ${runId} of workflow ${workflowId} not found`);
    const { row, ...ended } = outcome;
    res.json(toJsonView({ executionInfo: row, ...ended }, engine.dataConverter));
  }));

  app.get(`${API}/:workflowId/history`, Allow.readerOrWorker, forwardable(node, async (req, res) => {
    const { namespace, workflowId } = ids(req);
    const state = await engine.describe(namespace, workflowId);
    if (!state) throw new HttpError(404, 'WorkflowNotFound', `workflow ${workflowId} does not exist in namespace ${namespace}`);
    const runId = typeof req.query.runId === 'string' ? req.query.runId : state.executionInfo.runId;
    const untilEventId = req.query.untilEventId === undefined ? undefined : Number(req.query.untilEventId);
    const events = await engine.history(namespace, workflowId, runId, untilEventId === undefined ? {} : { untilEventId });
    // The queue of the run read (an older run may have been on another), from its first event.
    const started = events[0]?.attributes;
    assertServesRunQueue(res, req, started?.type === 'WorkflowExecutionStarted' ? started.taskQueue : state.executionInfo.taskQueue);
    // `raw=1` returns the events as the SDK needs them (payloads as base64 with metadata).
    res.json(req.query.raw ? { events: events.map(toRawView) } : { runId, events: toJsonView(events, engine.dataConverter) });
  }));

  app.use(taskRoutes(engine, options.taskTokenKey));
  app.use(taskQueueDescriptionRoutes(engine));
  app.use(resetRoutes(engine, options.selfEndpoint));
  app.use(visibilityRoutes(engine));
  app.use(updateRoutes(engine));
  app.use(asyncCompletionRoutes(engine, options.selfEndpoint));
  app.use(scheduleRoutes(engine));
  app.use(ingressRoutes(engine));
  app.use(auditRoutes(engine));
  app.use((req, _res, next) => next(new HttpError(404, 'NOT_FOUND', `no route for ${req.method} ${req.path}`)));
  app.use(async (error: unknown, req: Request, res: Response, next: NextFunction) => errorHandler(await whileShardUnserved(engine, error), req, res, next));
  return app;
}

/**
 * A command left unanswered while its shard was not served at some point of the wait (failing
 * over, restoring, back only a moment ago) is not a gateway timeout: it is written and will be
 * applied once the shard has caught up. Such a timeout becomes 503 SHARD_UNAVAILABLE with
 * Retry-After; one while the shard ran throughout stays 504.
 */
async function whileShardUnserved(engine: Engine, error: unknown): Promise<unknown> {
  if (!(error instanceof ReplyTimeoutError) || !error.target) return error;
  const { namespace, workflowId } = error.target;
  if (await engine.shardServed(namespace, workflowId, error.timeoutMs)) return error;
  return new ShardUnavailableError(engine.catalog.shardOf(namespace, workflowId), undefined, 'the command is written and is applied once the shard is served again; repeat the request with the same requestId to learn its outcome');
}

/** Runs input parsing; a TypeError (bad duration, unserialisable argument) becomes a 400. */
function badInput<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TypeError) throw new HttpError(400, 'INVALID_ARGUMENT', error.message);
    throw error;
  }
}

/** The namespace and workflow id of the path, checked against the rules every client applies. */
function ids(req: Request): { namespace: string; workflowId: string } {
  const { namespace, workflowId } = req.params;
  assertValid(firstProblem(() => namespaceProblem(namespace), () => identifierProblem(workflowId, 'workflowId')));
  return { namespace: namespace as string, workflowId: workflowId as string };
}

function runAndRequest(source: unknown): { runId?: string; requestId?: string } {
  const s = (source ?? {}) as Record<string, unknown>;
  return { ...(typeof s.runId === 'string' ? { runId: s.runId } : {}), ...(typeof s.requestId === 'string' ? { requestId: s.requestId } : {}) };
}

function pick(body: Record<string, unknown>, keys: readonly string[]): Record<string, never> {
  return Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]])) as Record<string, never>;
}

/** An Error reply becomes an exception carrying the engine's code (mapped to a status). */
/** The start request of an HTTP start or signal-with-start body (400 on a malformed field). */
function startFromBody(engine: Engine, namespace: string, workflowId: string, body: Record<string, unknown>) {
  return badInput(() =>
    startRequest(
      {
        namespace,
        workflowId,
        workflowType: requireString(body.workflowType, 'workflowType'),
        taskQueue: requireString(body.taskQueue, 'taskQueue'),
        args: optionalArray(body.args, 'args'),
        ...pick(body, ['workflowIdConflictPolicy', 'workflowIdReusePolicy', 'workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout', 'searchAttributes', 'memo', 'retryPolicy', 'cronSchedule']),
      },
      engine.dataConverter,
      'http-gateway',
    ),
  );
}

async function replyOrThrow(reply: Reply | undefined): Promise<Reply> {
  if (!reply) throw new LogbookError('REPLY_TIMEOUT', 'the engine did not answer');
  if (reply.kind === 'Error') throw new LogbookError(reply.failure?.code ?? 'ENGINE_ERROR', reply.failure?.message ?? 'the engine refused the request');
  return reply;
}

/** The wait of `GET …/result`: its `timeout`, default 60 s (a bad value is refused by the route itself). */
function resultWaitMs(req: Request): number {
  if (req.query.timeout === undefined) return RESULT_WAIT_MS;
  try {
    return waitOption(String(req.query.timeout), 'timeout');
  } catch {
    return 0;
  }
}
