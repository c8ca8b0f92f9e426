/**
 * The rule each route of the gateway is authorised by, placed first among the route's handlers
 * (`router.post(path, allow(writer), handler)`). With authentication off every rule lets the
 * request through; with it on, the rule authenticates the caller (401) and checks its grants (403).
 * A test lists the app's routes and fails for a route without a rule.
 * @module
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../http-errors.js';
import type { AuthenticatedPrincipal, Authenticator } from './authenticator.js';
import { bodyDigestOf, PEER_HEADER, type PeerPrincipal } from './peer-calls.js';
import { describeGrants, EVERY_NAMESPACE, hasRole, mayServeQueue, servesSomeQueue, type Role } from './grants.js';

/** Who may call a route. */
export type RouteRule =
  /** Anyone: health, readiness, the UI's page and script (they hold no data). */
  | { readonly kind: 'public' }
  /** Any authenticated caller (worker reports, the namespace list, which shows only what the caller may read). */
  | { readonly kind: 'signed-in' }
  /** The role, or a stronger one, in the path's `:namespace`. */
  | { readonly kind: 'namespace'; readonly role: Role }
  /** The reader role in the path's `:namespace`, or the queue of the run (checked once the run is read): a run's history, which workers read to replay. */
  | { readonly kind: 'reader-or-worker' }
  /** The role in every namespace (`*:<role>`): the deployment's own settings. */
  | { readonly kind: 'deployment'; readonly role: Role }
  /** The path's `:taskQueue` of `:namespace` in the `taskQueues` claim, or the namespace's `worker` or `admin` role. */
  | { readonly kind: 'task-queue' };

/** A rule's middleware, carrying the rule so tests and docs can read it. */
export type RuleHandler = RequestHandler & { readonly rule: RouteRule };

/** The key under which the app keeps its authenticator (absent: authentication is off). */
export const AUTHENTICATOR = 'authenticator';

/**
 * Authenticates every request it sees when authentication is on (mounted on `/api/v1`, so no API
 * route is reachable without a credential even before its rule runs, and a namespace's rate limit
 * is not spent by callers who are not who they say, nor by callers with no right in it: see
 * `gateway/namespace-guard.ts`).
 */
export async function authenticateRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    await principalOfRequest(req, res);
    next();
  } catch (error) {
    next(error);
  }
}

/** The middleware of `rule`. */
export function allow(rule: RouteRule): RuleHandler {
  const handler = async (req: Request, res: Response, next: NextFunction) => {
    if (rule.kind === 'public') return next();
    try {
      const principal = await principalOfRequest(req, res);
      if (principal?.method === 'peer') checkPeerBody(principal as AuthenticatedPrincipal & PeerPrincipal, req);
      else if (principal) authorise(rule, principal, req);
      next();
    } catch (error) {
      next(error);
    }
  };
  return Object.assign(handler, { rule });
}

/** The request's authenticated principal (once per request), or undefined when authentication is off. */
async function principalOfRequest(req: Request, res: Response): Promise<AuthenticatedPrincipal | undefined> {
  const authenticator = req.app.locals[AUTHENTICATOR] as Authenticator | undefined;
  if (!authenticator) return undefined;
  const known = res.locals.principal as AuthenticatedPrincipal | undefined;
  if (known) return known;
  try {
    const principal = await authenticator.principalOf(req);
    res.locals.principal = principal;
    return principal;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) res.setHeader('www-authenticate', 'Bearer realm="logbook"');
    throw error;
  }
}

/** Shorthands for the rules routes use. */
export const Allow = {
  public: allow({ kind: 'public' }),
  signedIn: allow({ kind: 'signed-in' }),
  reader: allow({ kind: 'namespace', role: 'reader' }),
  writer: allow({ kind: 'namespace', role: 'writer' }),
  admin: allow({ kind: 'namespace', role: 'admin' }),
  readerOrWorker: allow({ kind: 'reader-or-worker' }),
  deploymentReader: allow({ kind: 'deployment', role: 'reader' }),
  deploymentAdmin: allow({ kind: 'deployment', role: 'admin' }),
  taskQueue: allow({ kind: 'task-queue' }),
} as const;

/** The rule as the README's table says it. */
export function describeRule(rule: RouteRule): string {
  switch (rule.kind) {
    case 'public':
      return 'anyone';
    case 'signed-in':
      return 'signed in';
    case 'namespace':
      return `${rule.role} of the namespace`;
    case 'reader-or-worker':
      return 'reader or worker of the namespace';
    case 'deployment':
      return `${rule.role} of *`;
    case 'task-queue':
      return 'the task queue';
  }
}

/**
 * For a caller let in as a worker (`reader or worker of the namespace`), once the run is known:
 * a worker reads the runs of the queues it serves, not every run of the namespace.
 * @throws HttpError 403 `PERMISSION_DENIED` when the caller is no reader and does not serve the run's queue
 */
export function assertServesRunQueue(res: Response, req: Request, taskQueue: string): void {
  const principal = res.locals.principal as (AuthenticatedPrincipal & Partial<PeerPrincipal>) | undefined;
  // A peer's call is checked against the rights of the caller the first node served (it could not read the run there).
  const grants = principal?.method === 'peer' ? principal.callerGrants : principal?.method === 'none' ? undefined : principal?.grants;
  if (!principal || !grants) return;
  const namespace = String(req.params.namespace ?? '');
  if (hasRole(grants, namespace, 'reader') || mayServeQueue(grants, namespace, taskQueue)) return;
  throw new HttpError(403, 'PERMISSION_DENIED', `'${principal.subject}' may not read this run: it is on task queue ${taskQueue}, and the caller holds ${describeGrants(grants)} (it needs "${namespace}:reader" or taskQueues "${namespace}:${taskQueue}")`);
}

/**
 * A peer's call carries the body its credential was made for: the first node authorised that
 * call, not another one sent under its credential.
 * @throws HttpError 401 for a body the credential was not made for
 */
function checkPeerBody(principal: PeerPrincipal, req: Request): void {
  const sent = req.method === 'GET' || req.method === 'HEAD' ? '' : JSON.stringify(req.body ?? {});
  if (bodyDigestOf(sent) !== principal.bodyDigest) throw new HttpError(401, 'UNAUTHENTICATED', `the ${PEER_HEADER} credential was issued for another body`);
}

/** @throws HttpError 403 `PERMISSION_DENIED` saying what the caller lacks and what it holds */
function authorise(rule: RouteRule, principal: AuthenticatedPrincipal, req: Request): void {
  const namespace = String(req.params.namespace ?? '');
  const denied = (needs: string) => new HttpError(403, 'PERMISSION_DENIED', `'${principal.subject}' may not ${req.method} ${req.path}: it needs ${needs}, and holds ${describeGrants(principal.grants)}`);
  switch (rule.kind) {
    case 'public':
    case 'signed-in':
      return;
    case 'namespace':
      if (!hasRole(principal.grants, namespace, rule.role)) throw denied(`the ${rule.role} role in namespace ${namespace} (permission "${namespace}:${rule.role}")`);
      return;
    case 'reader-or-worker':
      if (!hasRole(principal.grants, namespace, 'reader') && !servesSomeQueue(principal.grants, namespace)) throw denied(`the reader role in namespace ${namespace} (permission "${namespace}:reader") or one of its task queues (taskQueues "${namespace}:<queue>")`);
      return;
    case 'deployment':
      if (!hasRole(principal.grants, EVERY_NAMESPACE, rule.role)) throw denied(`the ${rule.role} role in every namespace (permission "*:${rule.role}")`);
      return;
    case 'task-queue': {
      const queue = String(req.params.taskQueue ?? '');
      if (!mayServeQueue(principal.grants, namespace, queue)) throw denied(`task queue ${queue} of namespace ${namespace} (taskQueues "${namespace}:${queue}", or permission "${namespace}:worker")`);
      return;
    }
  }
}
