/**
 * `POST /api/v1/namespaces/{ns}/workflows/{id}/reset` (body: `runId`, `eventId`, `reason`,
 * `requestId`) → `{ workflowId, runId }`, the new run. Served by the node that owns the
 * workflow's shard (it reads the run's history from its local store); another node forwards the
 * request there.
 * @module
 */
import { Router } from 'express';
import { assertValid, identifierProblem } from '../topics/validation/index.js';
import type { Engine } from './engine.js';
import { ShardUnavailableError } from './engine.js';
import { HttpError, relayAnswer, requireString } from './http-errors.js';
import { resetWorkflow } from './reset-request.js';
import { FORWARDED_HEADER } from './auth/peer-calls.js';
import { principalOf } from './auth/principal.js';
import { Allow } from './auth/route-rules.js';

/** The reset route; `selfEndpoint` keeps a node from forwarding to itself. */
export function resetRoutes(engine: Engine, selfEndpoint: string): Router {
  const router = Router();
  router.post('/api/v1/namespaces/:namespace/workflows/:workflowId/reset', Allow.writer, async (req, res) => {
    const namespace = requireString(req.params.namespace, 'namespace');
    const workflowId = requireString(req.params.workflowId, 'workflowId');
    assertValid(identifierProblem(workflowId, 'workflowId'));
    const body = (req.body ?? {}) as Record<string, unknown>;
    const eventId = typeof body.eventId === 'string' && body.eventId.trim() !== '' ? Number(body.eventId) : body.eventId;
    if (typeof eventId !== 'number' || !Number.isSafeInteger(eventId) || eventId < 1) {
      throw new HttpError(400, 'InvalidArgument', "'eventId' must be the positive integer id of a workflow task event");
    }
    const optional = (name: string): string | undefined => {
      if (body[name] === undefined || body[name] === null) return undefined;
      return requireString(body[name], name);
    };
    const runId = optional('runId');
    const requestId = optional('requestId');
    const request = {
      namespace, workflowId, eventId, reason: optional('reason') ?? '', identity: 'http-gateway',
      ...(runId ? { runId } : {}), ...(requestId ? { requestId } : {}),
    };
    try {
      res.json({ workflowId, runId: await resetWorkflow(engine, request) });
    } catch (error) {
      const forwarded = req.headers[FORWARDED_HEADER] !== undefined;
      if (!(error instanceof ShardUnavailableError) || !error.ownerEndpoint || error.ownerEndpoint === selfEndpoint || forwarded) throw error;
      // An owner that cannot be reached leaves the shard unavailable: 503, not 500.
      const url = `${error.ownerEndpoint}${req.originalUrl}`;
      const sent = JSON.stringify(body);
      const answer = await fetch(url, {
        method: 'POST', headers: { 'content-type': 'application/json', ...engine.peers.headers('POST', url, principalOf(res), sent) }, body: sent,
      }).catch(() => {
        throw error;
      });
      await relayAnswer(res, answer);
    }
  });
  return router;
}
