import type { NextFunction, Request, Response } from 'express';
import { TokenBuckets } from '../topics/namespaces/token-bucket.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import type { AuthenticatedPrincipal } from './auth/authenticator.js';
import { hasRole, servesSomeQueue } from './auth/grants.js';

/** The calls that start workflows (paths below `/api/v1/namespaces/{ns}`). */
const STARTS: readonly RegExp[] = [
  /^\/workflows\/?$/,
  /^\/workflows\/[^/]+\/signal-with-start\/?$/,
  /^\/workflows\/[^/]+\/update-with-start\/[^/]+\/?$/,
  /^\/schedules\/?$/,
];

/**
 * What every call under `/api/v1/namespaces/{ns}/…` passes first, on this gateway node:
 *
 * - an unregistered namespace is refused with 404 `NamespaceNotFound` when the engine requires
 *   registration (otherwise it works with the engine's defaults);
 * - a start (start, signal-with-start, update-with-start, creating a schedule) in a `Deprecated` namespace is refused with 409
 *   `NamespaceDeprecated`;
 * - the namespace's `apiCallsPerSecond` and, for starts, `startsPerSecond` are token buckets
 *   (burst: one second's worth); over them the call gets 429 `RESOURCE_EXHAUSTED` naming the
 *   limit, with `Retry-After` in seconds.
 *
 * The task endpoints (`…/task-queues/…`, the polls of HTTP workers) are not API calls: they are
 * neither counted nor refused for a deprecated namespace, so running work still finishes.
 * Buckets are per node: with N gateway nodes behind a balancer a namespace gets up to N × its rate.
 */
export class NamespaceGuard {
  private readonly buckets = new TokenBuckets();

  constructor(
    private readonly engine: Engine,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Express middleware body: next() or an HttpError. */
  check(req: Request, res: Response, next: NextFunction): void {
    const name = String(req.params.namespace);
    if (req.path.startsWith('/task-queues/')) return next();
    // A caller with no right at all in the namespace is refused by the route's rule (403); it must
    // not spend the namespace's rate budget first, or any tenant could starve another.
    if (!mayActIn(res, name)) return next();
    const namespace = this.engine.namespaces.get(name);
    if (!namespace) {
      if (this.engine.requireRegisteredNamespaces) return next(new HttpError(404, 'NamespaceNotFound', `namespace ${name} is not registered`));
      return next();
    }
    const isStart = req.method === 'POST' && STARTS.some((path) => path.test(req.path));
    if (isStart && namespace.state === 'Deprecated') {
      return next(new HttpError(409, 'NamespaceDeprecated', `namespace ${name} is deprecated: running workflows go on, new ones cannot be started`));
    }
    const now = this.clock();
    const api = this.buckets.bucket(`${name}/api`, namespace.apiCallsPerSecond, now)?.tryTake(now) ?? 0;
    if (api > 0) return next(exhausted(name, 'apiCallsPerSecond', namespace.apiCallsPerSecond!, api));
    if (isStart) {
      const starts = this.buckets.bucket(`${name}/starts`, namespace.startsPerSecond, now)?.tryTake(now) ?? 0;
      if (starts > 0) return next(exhausted(name, 'startsPerSecond', namespace.startsPerSecond!, starts));
    }
    next();
  }
}

/** Whether the request's caller holds any right in `namespace` (always, with authentication off). */
function mayActIn(res: Response, namespace: string): boolean {
  const principal = res.locals?.principal as AuthenticatedPrincipal | undefined;
  if (!principal || principal.method === 'peer' || principal.method === 'none') return true;
  return hasRole(principal.grants, namespace, 'reader') || servesSomeQueue(principal.grants, namespace);
}

function exhausted(namespace: string, limit: string, rate: number, waitMs: number): HttpError {
  return new HttpError(
    429,
    'RESOURCE_EXHAUSTED',
    `namespace ${namespace}: rate limit ${limit} (${rate}/s) exceeded; retry after ${waitMs} ms`,
    Math.max(1, Math.ceil(waitMs / 1000)),
  );
}
