import { Router, type Request, type Response } from 'express';
import type { WorkflowTaskFailedCause } from '../../topics/schemas/common/v1-enums.js';
import { WorkflowTaskFailedCause as FailedCauses } from '../../topics/schemas/common/v1-enums.js';
import type { WorkflowCommand } from '../../topics/schemas/command/index.js';
import type { Engine } from '../engine.js';
import { requireString } from '../http-errors.js';
import { fromRawView, toRawView } from '../../topics/wire/raw-view.js';
import type { Handout, TaskBridge } from './task-bridge.js';
import { taskBridges } from './task-bridges.js';
import { QUEUE, queueOf, withinWait } from './task-queue-path.js';
import { queryTaskRoutes } from './query-task-routes.js';
import { decodeTaskToken, encodeTaskToken, type TaskKind, type TaskTokenData } from './task-token.js';
import type { TokenSigner } from './token-signer.js';
import { bodyOf, decodePayloadsOf, failureOf, invalid, optionalPayload, rawPayload, waitMsOf } from './wire-values.js';
import { decodedActivityView } from './decoded-activity-view.js';
import type { ActivityTask } from '../../topics/schemas/activity-task/index.js';
import { Allow } from '../auth/route-rules.js';

/** Lease of a handed-out task without a start-to-close timeout of its own. */
const DEFAULT_LEASE_MS = 60_000;

/** The fields every task shares: the run and the attempt. */
interface TaskRef {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly scheduledEventId: number;
  readonly attempt: number;
}

/**
 * HTTP task endpoints for workers that cannot speak Kafka (DESIGN.md §4): long polls hand out
 * tasks read from the queue's task topics by the gateway's bridge, and results are written to the
 * command topic exactly as a Kafka worker writes them. Mount before the 404 handler.
 */
export function taskRoutes(engine: Engine, taskTokenKey?: Buffer): Router {
  const router = Router();
  const bridges = taskBridges(engine, taskTokenKey);
  const tokenOf = (req: Request, kind: TaskKind) => queueToken(req, kind, bridges.signer);
  const converter = engine.dataConverter;
  router.use(queryTaskRoutes(bridges));

  router.post(`${QUEUE}/workflow-tasks/poll`, Allow.taskQueue, async (req, res) => {
    const { namespace, taskQueue } = queueOf(req);
    const body = bodyOf(req.body);
    const identity = requireString(body.identity, 'identity');
    const deadline = Date.now() + waitMsOf(body.waitMs);
    const bridge = await withinWait(bridges.workflow(namespace, taskQueue), deadline);
    if (!bridge) return void res.status(204).end();
    await handOut(bridge, 'workflow', identity, deadline, res, (task) => (task.startToCloseTimeoutMs > 0 ? task.startToCloseTimeoutMs : DEFAULT_LEASE_MS), toRawView);
  });

  router.post(`${QUEUE}/workflow-tasks/complete`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'workflow');
    if (!Array.isArray(body.commands)) throw invalid(`'commands' must be an array of workflow commands (raw view)`);
    const commands = fromRawView(body.commands) as WorkflowCommand[];
    commands.forEach((c, i) => {
      if (c === null || typeof c !== 'object' || typeof c.type !== 'string') throw invalid(`'commands[${i}].type' must name a workflow command, e.g. 'ScheduleActivityTask'`);
    });
    const sdkName = typeof body.sdkName === 'string' ? body.sdkName : 'logbook-http';
    const sdkVersion = typeof body.sdkVersion === 'string' ? body.sdkVersion : null;
    await bridges.write(token, { type: 'WorkflowTaskCompleted', ...attemptRef(token), commands, sdkFlags: [], sdkName, sdkVersion });
    await done(token, res);
  });

  router.post(`${QUEUE}/workflow-tasks/fail`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'workflow');
    const cause = (body.cause ?? 'WorkflowWorkerUnhandledFailure') as WorkflowTaskFailedCause;
    if (typeof cause !== 'string' || !(cause in FailedCauses)) throw invalid(`'cause' must be one of ${Object.keys(FailedCauses).join(', ')}`);
    const failure = body.failure === undefined ? null : failureOf(body.failure, 'failure', converter);
    await bridges.write(token, { type: 'WorkflowTaskFailed', ...attemptRef(token), cause, failure });
    await done(token, res);
  });

  router.post(`${QUEUE}/activity-tasks/poll`, Allow.taskQueue, async (req, res) => {
    const { namespace, taskQueue } = queueOf(req);
    const body = bodyOf(req.body);
    const identity = requireString(body.identity, 'identity');
    const deadline = Date.now() + waitMsOf(body.waitMs);
    const decode = decodePayloadsOf(body.decodePayloads);
    const bridge = await withinWait(bridges.activity(namespace, taskQueue), deadline);
    if (!bridge) return void res.status(204).end();
    const view = decode ? (task: ActivityTask) => decodedActivityView(task, converter) : toRawView;
    await handOut(bridge, 'activity', identity, deadline, res, (task) => task.startToCloseTimeoutMs ?? DEFAULT_LEASE_MS, view);
  });

  router.post(`${QUEUE}/activity-tasks/complete`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'activity');
    // `payload`: bytes the worker encoded itself; otherwise `result` is JSON for the engine's converter.
    const result = body.payload !== undefined ? rawPayload(body.payload, 'payload') : converter.toPayload(body.result);
    await bridges.write(token, { type: 'ActivityTaskCompleted', ...attemptRef(token), result });
    await done(token, res);
  });

  router.post(`${QUEUE}/activity-tasks/fail`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'activity');
    const failure = failureOf(body.failure, 'failure', converter);
    const lastHeartbeatDetails = optionalPayload(body.lastHeartbeatDetails, converter);
    await bridges.write(token, { type: 'ActivityTaskFailed', ...attemptRef(token), failure, lastHeartbeatDetails });
    await done(token, res);
  });

  router.post(`${QUEUE}/activity-tasks/canceled`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'activity');
    await bridges.write(token, { type: 'ActivityTaskCanceled', ...attemptRef(token), details: optionalPayload(body.details, converter) });
    await done(token, res);
  });

  router.post(`${QUEUE}/activity-tasks/heartbeat`, Allow.taskQueue, async (req, res) => {
    const { token, body } = tokenOf(req, 'activity');
    await bridges.write(token, { type: 'ActivityTaskHeartbeat', ...attemptRef(token), details: optionalPayload(body.details, converter) });
    const watch = await bridges.cancellations(token.namespace, token.taskQueue);
    res.json({ cancelRequested: watch.isCancelled(token.workflowId, token.runId, token.scheduledEventId) });
  });

  /**
   * Long-polls the bridge and hands the task to this poller: its call is the claim, so the
   * `…TaskStarted` command is written for it (the engine arms start-to-close from it) and its
   * answer awaited before the task is returned. A task whose claim the engine refuses (another
   * claim holds the attempt: one attempt has one holder) is skipped and the poll goes on. A poller
   * that left before the claim gets nothing; its task goes to the next.
   */
  async function handOut<T extends TaskRef>(bridge: TaskBridge<T>, kind: TaskKind, identity: string, deadline: number, res: Response, leaseMs: (task: T) => number, view: (task: T) => unknown): Promise<void> {
    const left = new AbortController();
    const onClose = () => left.abort();
    res.once('close', onClose);
    try {
      for (;;) {
        const handout = await bridge.poll(Math.max(0, deadline - Date.now()), left.signal);
        if (!handout) {
          if (!left.signal.aborted) res.status(204).end();
          return;
        }
        if (left.signal.aborted) return bridge.giveBack(handout);
        const token = tokenFor(kind, handout, identity);
        const claim = await claimFor(bridge, handout, token);
        if (claim === 'refused') {
          bridge.skip(handout);
          // Each refused claim took its round trip: past the wait, this poll found nothing.
          if (Date.now() < deadline) continue;
          if (!left.signal.aborted) res.status(204).end();
          return;
        }
        // Unanswered (its shard failing over): handing it out could run an attempt already
        // recorded, so it goes back to the queue and this poll found nothing.
        if (claim === 'unanswered') {
          bridge.giveBack(handout);
          if (!left.signal.aborted) res.status(204).end();
          return;
        }
        bridge.lease(handout, leaseMs(handout.task));
        res.json({ taskToken: encodeTaskToken(token, bridges.signer), task: view(handout.task) });
        return;
      }
    } finally {
      res.off('close', onClose);
    }
  }

  /** Claims the handed-out task; a claim that cannot be written gives the task back and fails the poll. */
  async function claimFor<T>(bridge: TaskBridge<T>, handout: Handout<T>, token: TaskTokenData): Promise<'accepted' | 'refused' | 'unanswered'> {
    try {
      return await bridges.claim(token);
    } catch (error) {
      bridge.giveBack(handout);
      throw error;
    }
  }

  async function done(token: TaskTokenData, res: Response): Promise<void> {
    await bridges.finish(token);
    res.status(202).json({ accepted: true });
  }

  return router;
}

function queueToken(req: Request, kind: TaskKind, signer: TokenSigner): { token: TaskTokenData; body: Record<string, unknown> } {
  const { namespace, taskQueue } = queueOf(req);
  const body = bodyOf(req.body);
  return { token: decodeTaskToken(body.taskToken, kind, namespace, taskQueue, signer), body };
}

function tokenFor<T extends TaskRef>(kind: TaskKind, handout: Handout<T>, identity: string): TaskTokenData {
  const t = handout.task;
  return { kind, namespace: t.namespace, taskQueue: t.taskQueue, workflowId: t.workflowId, runId: t.runId, scheduledEventId: t.scheduledEventId, attempt: t.attempt, identity, partition: handout.partition, offset: handout.offset };
}

function attemptRef(token: TaskTokenData): { scheduledEventId: number; attempt: number; identity: string } {
  return { scheduledEventId: token.scheduledEventId, attempt: token.attempt, identity: token.identity };
}
