import { Router, type Response } from 'express';
import type { QueryTask } from '../../topics/schemas/query-task/index.js';
import { toRawView } from '../../topics/wire/raw-view.js';
import { isKnownErrorCode, requireString } from '../http-errors.js';
import type { Failure } from '../../topics/schemas/common/v1-records.js';
import type { Handout, TaskBridge } from './task-bridge.js';
import type { TaskBridges } from './task-bridges.js';
import { decodeQueryToken, encodeQueryToken } from './query-token.js';
import type { TokenSigner } from './token-signer.js';
import { QUEUE, queueOf, withinWait } from './task-queue-path.js';
import { bodyOf, failureOf, invalid, rawPayload, waitMsOf } from './wire-values.js';
import { Allow } from '../auth/route-rules.js';

/** A query read this long after its deadline is dropped unanswered (clock skew between machines). */
const DEADLINE_SKEW_ALLOWANCE_MS = 5_000;

/**
 * HTTP query endpoints, beside the task endpoints, for workflow workers that reach the engine over
 * HTTP: a long poll hands out a query of the queue (read from its query topic by the gateway's
 * bridge) and the answer is written to the replies topic, where the asker waits. Queries are not
 * durable: a query is released as it is handed out, and one whose poller never answers times out
 * for its asker, as when a Kafka query worker dies.
 */
export function queryTaskRoutes(bridges: TaskBridges): Router {
  const router = Router();

  router.post(`${QUEUE}/query-tasks/poll`, Allow.taskQueue, async (req, res) => {
    const { namespace, taskQueue } = queueOf(req);
    const body = bodyOf(req.body);
    // Required as on the task polls, though a query's answer names no poller.
    requireString(body.identity, 'identity');
    const deadline = Date.now() + waitMsOf(body.waitMs);
    const bridge = await withinWait(bridges.query(namespace, taskQueue), deadline);
    if (!bridge) return void res.status(204).end();
    await handOutQuery(bridge, taskQueue, deadline, res, bridges.signer);
  });

  router.post(`${QUEUE}/query-tasks/answer`, Allow.taskQueue, async (req, res) => {
    const { namespace, taskQueue } = queueOf(req);
    const body = bodyOf(req.body);
    const token = decodeQueryToken(body.taskToken, namespace, taskQueue, bridges.signer);
    if (body.failure !== undefined && (body.payload !== undefined || body.result !== undefined)) throw invalid(`an answer has 'failure' or a result ('payload' or 'result'), not both`);
    const converter = bridges.dataConverter;
    const failure = body.failure === undefined ? null : askersFailure(failureOf(body.failure, 'failure', converter));
    // `payload`: bytes the worker encoded itself; otherwise `result` is JSON for the engine's converter.
    const payload = failure ? null : body.payload !== undefined ? rawPayload(body.payload, 'payload') : converter.toPayload(body.result);
    await bridges.reply({ requestId: token.requestId, kind: 'QueryAnswer', runId: token.runId, payload, failure, executionStatus: null });
    res.status(202).json({ accepted: true });
  });

  return router;
}

/**
 * The failure as the asker gets it: a worker's own code that the gateway has no status for (say a
 * Python worker's `QueryNotFound`) becomes `QueryFailed`, a 400 to the asker, with the worker's
 * failure as its cause — a failed query is the query's problem, not the gateway's.
 */
function askersFailure(failure: Failure): Failure {
  if (isKnownErrorCode(failure.code)) return failure;
  return { ...failure, code: 'QueryFailed', message: `${failure.code}: ${failure.message}`, cause: failure };
}

/**
 * Long-polls the bridge for a query whose asker still waits and hands it to this poller. The
 * record is released at once: the token carries all the answer needs.
 */
async function handOutQuery(bridge: TaskBridge<QueryTask>, taskQueue: string, deadline: number, res: Response, signer: TokenSigner): Promise<void> {
  const left = new AbortController();
  const onClose = () => left.abort();
  res.once('close', onClose);
  try {
    for (;;) {
      const handout: Handout<QueryTask> | undefined = await bridge.poll(Math.max(0, deadline - Date.now()), left.signal);
      if (!handout) {
        if (!left.signal.aborted) res.status(204).end();
        return;
      }
      if (left.signal.aborted) return bridge.giveBack(handout);
      bridge.skip(handout);
      const task = handout.task;
      // Its asker has given up (allowing for clock skew between machines, as Kafka query workers do).
      if (Date.now() > task.deadlineTime + DEADLINE_SKEW_ALLOWANCE_MS) continue;
      const taskToken = encodeQueryToken({ namespace: task.namespace, taskQueue, workflowId: task.workflowId, runId: task.runId, requestId: task.replyTo.requestId }, signer);
      res.json({ taskToken, task: toRawView(task) });
      return;
    }
  } finally {
    res.off('close', onClose);
  }
}
