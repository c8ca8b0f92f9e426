import { Router, type Request } from 'express';
import { firstProblem, identifierProblem, namespaceProblem } from '../../topics/validation/index.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import type { Engine } from '../engine.js';
import { HttpError } from '../http-errors.js';
import { readAuditTrail, type AuditQuery } from './audit-reader.js';
import { Allow } from '../auth/route-rules.js';

/** Records a query answers when it names no `limit`. */
export const DEFAULT_AUDIT_LIMIT = 100;
/** The most records one query answers: each is read from Kafka on request. */
export const MAX_AUDIT_LIMIT = 1000;

/**
 * The audit trail's read routes, newest record first:
 * `GET /api/v1/audit?namespace=&workflowId=&since=&limit=` and
 * `GET /api/v1/namespaces/:namespace/audit?workflowId=&since=&limit=`. `since` is an RFC 3339 time
 * or epoch milliseconds; `limit` 1 to 1000, default 100. A bad parameter is a 400 naming it.
 */
export function auditRoutes(engine: Pick<Engine, 'log' | 'catalog' | 'serde'>): Router {
  const router = Router();
  const answer = async (query: AuditQuery) => {
    const page = await readAuditTrail(engine.log, engine.catalog, engine.serde, query);
    return { order: 'newest-first', records: page.records.map(auditRecordView), truncated: page.truncated };
  };
  router.get('/api/v1/audit', Allow.deploymentAdmin, async (req, res) => {
    const namespace = optionalText(req, 'namespace');
    res.json(await answer(queryOf(req, namespace)));
  });
  router.get('/api/v1/namespaces/:namespace/audit', Allow.admin, async (req, res) => {
    res.json(await answer(queryOf(req, String(req.params.namespace))));
  });
  return router;
}

/** An audit record as the API shows it: the time as RFC 3339. */
export function auditRecordView(record: AuditRecord): Record<string, unknown> {
  return { ...record, time: new Date(record.time).toISOString() };
}

function queryOf(req: Request, namespace: string | undefined): AuditQuery {
  const workflowId = optionalText(req, 'workflowId');
  const problem = firstProblem(
    () => (namespace === undefined ? null : namespaceProblem(namespace)),
    () => (workflowId === undefined ? null : identifierProblem(workflowId, 'workflowId')),
  );
  if (problem !== null) throw new HttpError(400, 'INVALID_ARGUMENT', problem);
  const since = sinceOf(optionalText(req, 'since'));
  return { ...(namespace === undefined ? {} : { namespace }), ...(workflowId === undefined ? {} : { workflowId }), ...(since === undefined ? {} : { since }), limit: limitOf(optionalText(req, 'limit')) };
}

/** A query parameter given once, as text; a repeated one (`?limit=1&limit=2`) is refused rather than guessed. */
function optionalText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'INVALID_ARGUMENT', `'${name}' must be given once, as text`);
  return value;
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_AUDIT_LIMIT;
  // Digits only: Number() would take '1e3', ' 7', '0x10' and '' as numbers.
  const limit = /^[0-9]{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_AUDIT_LIMIT)) throw new HttpError(400, 'INVALID_ARGUMENT', `'limit' must be a whole number from 1 to ${MAX_AUDIT_LIMIT}, got '${text.slice(0, 40)}'`);
  return limit;
}

function sinceOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^[0-9]{1,15}$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, 'INVALID_ARGUMENT', `'since' must be an RFC 3339 time (2024-01-02T03:04:05Z) or epoch milliseconds, got '${text.slice(0, 40)}'`);
  return ms;
}
