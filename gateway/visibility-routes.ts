/**
 * The visibility routes: list runs (`GET …/workflows?query=`) and count them
 * (`GET …/workflow-count?query=`) with the filter language of `visibility-query/`, and the open
 * runs lacking a patch (`GET …/patches/{patchId}/open-runs-lacking?workflowType=`).
 * @module
 */
import { Router, type Request } from 'express';
import type { Engine } from './engine.js';
import { HttpError, requireString } from './http-errors.js';
import { listOpenRunsLackingPatch } from './patch-listing.js';
import { countExecutions, DEFAULT_PAGE_SIZE, listExecutions, MAX_PAGE_SIZE } from './visibility-listing.js';
import { Allow } from './auth/route-rules.js';

/** Routes answering list and count from the visibility rows of every shard (`local=1`: this node's shards only). */
export function visibilityRoutes(engine: Engine): Router {
  const router = Router();
  router.get('/api/v1/namespaces/:namespace/workflows', Allow.reader, async (req, res) => {
    const request = { namespace: String(req.params.namespace), query: queryOf(req), pageSize: pageSizeOf(req) };
    const token = req.query.nextPageToken;
    const answer = await listExecutions(engine, typeof token === 'string' && token !== '' ? { ...request, nextPageToken: token } : request, isLocal(req));
    res.json(answer);
  });
  router.get('/api/v1/namespaces/:namespace/workflow-count', Allow.reader, async (req, res) => {
    res.json(await countExecutions(engine, String(req.params.namespace), queryOf(req), isLocal(req)));
  });
  // Versioning: the open runs a patch's removal would break.
  router.get('/api/v1/namespaces/:namespace/patches/:patchId/open-runs-lacking', Allow.reader, async (req, res) => {
    const workflowType = requireString(req.query.workflowType, 'workflowType');
    const query = { namespace: String(req.params.namespace), workflowType, patchId: String(req.params.patchId) };
    res.json(await listOpenRunsLackingPatch(engine, query, isLocal(req)));
  });
  return router;
}

function queryOf(req: Request): string {
  const query = req.query.query ?? '';
  if (typeof query !== 'string') throw new HttpError(400, 'INVALID_QUERY', "'query' must be given once, as a string");
  return query;
}

function pageSizeOf(req: Request): number {
  if (req.query.pageSize === undefined) return DEFAULT_PAGE_SIZE;
  const size = Number(req.query.pageSize);
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw new HttpError(400, 'INVALID_ARGUMENT', `'pageSize' must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return size;
}

function isLocal(req: Request): boolean {
  return req.query.local === '1';
}
