import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DEPLOYMENT_AUDIT_NAMESPACE } from '../../topics/catalog.js';
import type { AuditRecord } from '../../topics/schemas/audit-record/index.js';
import { bodyDigestOf, PEER_HEADER, type PeerCalls } from '../auth/peer-calls.js';
import { principalOf, type Principal } from '../auth/principal.js';
import { AUTHENTICATOR } from '../auth/route-rules.js';
import { auditedRouteOf, type AuditedRoute } from './audit-actions.js';
import type { AuditWriter } from './audit-writer.js';

/** Who a call refused before its caller was authenticated ran as, when authentication is on (a missing or refused credential). */
const UNAUTHENTICATED: Principal = { subject: 'unauthenticated', method: 'none' };
/** The key of `app.locals` under which the app keeps its audit writer, for {@link flushAuditTrail}. */
export const AUDIT_WRITER = 'auditWriter';

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
 * ran (bad input, a missing token) and calls whose caller hung up. Who: `res.locals.principal`;
 * `anonymous` when authentication is off, `unauthenticated` when it is on and the call was refused
 * before its caller was authenticated. Reads only identifiers from the bodies (workflow id, run
 * id, schedule id, request id, an error answer's `code`); payloads never reach the trail.
 * Mount it first, so it sees calls every later middleware refuses.
 *
 * A call another node made on a caller's behalf is not recorded again: that node recorded the
 * caller's call. Such a call is known by its peer credential, checked with `peers` (the
 * deployment's key), never by a header a client could send itself.
 * @param peers checks a call's peer credential (`engine.peers`)
 */
export function auditTrail(writer: AuditWriter, nodeId: string, peers: Pick<PeerCalls, 'verify'>, clock: () => number = Date.now): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const match = auditedRouteOf(req.method, req.path);
    if (!match.audited) return next();
    const { audited, params } = match;
    const answer = captureAnswer(res);
    // Checked as the call arrives (a credential may expire while a long call is answered) ...
    const peerDigest = peerBodyDigestOf(req, peers);
    res.once('close', () => {
      // ... and its body once the body is read: the credential must be for this body too.
      if (peerDigest !== undefined && peerDigest === bodyDigestOf(sentBody(req))) return;
      const ids = identifiersOf(req.body, answer.fields(), params, req.headers['x-request-id']);
      writer.append(recordOf(audited, req, res, ids, params, nodeId, clock()));
    });
    next();
  };
}

/**
 * Waits until the records of the calls `app` has answered so far are written (at most `timeoutMs`,
 * default 5 s): a node stopping after its last answers would otherwise lose their records with its
 * producer. Does nothing for an app without an audit trail.
 */
export async function flushAuditTrail(app: { locals: Record<string, unknown> }, timeoutMs?: number): Promise<void> {
  await (app.locals[AUDIT_WRITER] as AuditWriter | undefined)?.flush(timeoutMs);
}

/**
 * The body digest of the call's peer credential, when it carries one signed with the deployment's
 * key for this method and path (the body is compared once read). Nodes sign every call to a peer,
 * with authentication on or off, so a genuine forwarded call always has one; a caller without the
 * key cannot make one and is audited. Nodes without a shared `--task-token-key` cannot check each
 * other's: their forwarded calls are audited on both nodes.
 */
function peerBodyDigestOf(req: Request, peers: Pick<PeerCalls, 'verify'>): string | undefined {
  const credential = req.headers[PEER_HEADER];
  if (typeof credential !== 'string') return undefined;
  try {
    return peers.verify(credential, req.method, req.originalUrl).bodyDigest;
  } catch {
    return undefined;
  }
}

/** The body as a peer credential digests it: empty for a read, else the JSON of the parsed body. */
function sentBody(req: Request): string {
  return req.method === 'GET' || req.method === 'HEAD' ? '' : JSON.stringify(req.body ?? {});
}

/**
 * Who made the call. Without a principal, a call under `--auth` was refused before its caller was
 * authenticated: recording it as `anonymous` would read as though authentication were off.
 */
function principalOfCall(req: Request, res: Response): Principal {
  if (res.locals.principal === undefined && req.app.locals[AUTHENTICATOR] !== undefined) return UNAUTHENTICATED;
  return principalOf(res);
}

function recordOf(audited: AuditedRoute, req: Request, res: Response, ids: Identifiers, params: Readonly<Record<string, string>>, nodeId: string, time: number): AuditRecord {
  const principal = principalOfCall(req, res);
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
