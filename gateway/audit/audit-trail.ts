import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DEPLOYMENT_AUDIT_NAMESPACE } from '../../topics/catalog.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { principalOf } from '../auth/principal.js';
import { auditedRouteOf, type AuditedRoute } from './audit-actions.js';
import type { AuditWriter } from './audit-writer.js';

/** Set on calls one node makes to another on a caller's behalf: the call is audited where the caller made it. */
const FORWARDED_HEADER = 'x-logbook-forwarded';
/** Answers longer than this are not read for their identifiers (error answers and the answers naming a run are small). */
const MAX_ANSWER_READ = 16 * 1024;

/** What the trail reads of a request: identifiers only, never a payload. */
interface Identifiers {
  workflowId: string | null;
  runId: string | null;
  resourceId: string | null;
  requestId: string | null;
  errorCode: string | null;
}

/**
 * Express middleware that records every mutating call of the API (see `audit-actions.ts` for
 * which) in the audit trail once its answer has gone out — including calls refused before a route
 * ran (bad input, a missing token) and calls whose caller hung up. Who: `res.locals.principal`,
 * anonymous when authentication is off. Reads only identifiers from the bodies (workflow id, run
 * id, schedule id, request id, an error answer's `code`); payloads never reach the trail.
 * Mount it first, so it sees calls every later middleware refuses.
 */
export function auditTrail(writer: AuditWriter, nodeId: string, clock: () => number = Date.now): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers[FORWARDED_HEADER] !== undefined) return next();
    const match = auditedRouteOf(req.method, req.path);
    if (!match.audited) return next();
    const { audited, params } = match;
    const answer = captureAnswer(res);
    res.once('close', () => {
      const ids = identifiersOf(req.body, answer.fields(), params, req.headers['x-request-id']);
      writer.append(recordOf(audited, req, res, ids, params, nodeId, clock()));
    });
    next();
  };
}

function recordOf(audited: AuditedRoute, req: Request, res: Response, ids: Identifiers, params: Readonly<Record<string, string>>, nodeId: string, time: number): AuditRecord {
  const principal = principalOf(res);
  // A caller that hung up before any answer was sent: nginx's 499, so the trail still shows the attempt.
  const statusCode = res.headersSent ? res.statusCode : 499;
  return {
    time,
    principalSubject: principal.subject,
    principalMethod: principal.method,
    requestId: ids.requestId,
    method: req.method,
    route: audited.route,
    action: audited.action,
    namespace: namespaceOf(audited, params, req.body),
    workflowId: ids.workflowId,
    runId: ids.runId,
    resourceId: ids.resourceId,
    statusCode,
    errorCode: statusCode >= 400 ? (ids.errorCode ?? (res.headersSent ? null : 'CLIENT_CLOSED_REQUEST')) : null,
    remoteAddress: req.socket.remoteAddress ?? null,
    nodeId,
  };
}

/** The namespace of the call: the path's, a registration's name, or the deployment's for ingress mappings. */
function namespaceOf(audited: AuditedRoute, params: Readonly<Record<string, string>>, body: unknown): string {
  if (params.namespace !== undefined) return params.namespace;
  if (audited.action === 'RegisterNamespace') return textField(body, 'name') ?? DEPLOYMENT_AUDIT_NAMESPACE;
  return DEPLOYMENT_AUDIT_NAMESPACE;
}

function identifiersOf(body: unknown, answer: Record<string, unknown>, params: Readonly<Record<string, string>>, requestIdHeader: unknown): Identifiers {
  return {
    workflowId: params.workflowId ?? textField(body, 'workflowId') ?? textField(answer, 'workflowId'),
    runId: textField(answer, 'runId') ?? textField(body, 'runId'),
    resourceId: params.scheduleId ?? params.name ?? textField(body, 'scheduleId'),
    requestId: textField(body, 'requestId') ?? (typeof requestIdHeader === 'string' && requestIdHeader !== '' ? requestIdHeader : null),
    errorCode: textField(answer, 'code'),
  };
}

/** A string field of a JSON object, or null (identifiers only: never a payload's content). */
function textField(source: unknown, name: string): string | null {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return null;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Keeps the answer's bytes as they are sent (express's `json` goes through `send`, a forwarded
 * call's relayed answer too), to read its identifiers and error code once the call is over.
 */
function captureAnswer(res: Response): { fields(): Record<string, unknown> } {
  let sent: unknown;
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    sent = body;
    return send(body);
  };
  return {
    fields() {
      const text = typeof sent === 'string' ? sent : Buffer.isBuffer(sent) ? sent.toString('utf8') : undefined;
      if (text === undefined || text.length > MAX_ANSWER_READ) return typeof sent === 'object' && sent !== null && !Buffer.isBuffer(sent) ? (sent as Record<string, unknown>) : {};
      try {
        const parsed: unknown = JSON.parse(text);
        return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    },
  };
}
