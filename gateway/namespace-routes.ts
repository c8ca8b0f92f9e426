import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Namespace } from '../topics/schemas/namespace/index.js';
import { InvalidNamespaceError, type NamespaceChanges } from '../processors/namespaces/namespace-model.js';
import { durationToMs } from '../sdk/workflow/duration.js';
import { namespaceProblem } from '../topics/validation/index.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import { NamespaceGuard } from './namespace-guard.js';
import { Allow } from './auth/route-rules.js';
import type { AuthenticatedPrincipal } from './auth/authenticator.js';
import { EVERY_NAMESPACE, hasRole } from './auth/grants.js';

const CHANGE_FIELDS = ['description', 'ownerEmail', 'state', 'retention', 'historyLimits', 'startsPerSecond', 'apiCallsPerSecond', 'taskQueueActivitiesPerSecond', 'codecRequiredTaskQueues', 'refusedSearchAttributes'];

/**
 * The namespace API (register, describe, update, list) and the guard in front of every
 * per-namespace call (unknown namespace, deprecated namespace, rate limits; see
 * `namespace-guard.ts`). Mounted before the workflow routes.
 */
export function namespaceRoutes(engine: Engine): Router {
  const router = Router();
  const registry = engine.namespaces;
  const guard = new NamespaceGuard(engine);

  // Every call naming a namespace: a name that could never be one (it becomes part of task topic names) is a 400 naming the rule.
  router.use('/api/v1/namespaces/:namespace', (req: Request, _res: Response, next: NextFunction) => {
    const problem = namespaceProblem(req.params.namespace);
    next(problem === null ? undefined : new HttpError(400, 'INVALID_ARGUMENT', problem));
  });
  router.post('/api/v1/namespaces', Allow.deploymentAdmin, async (req, res) => {
    const body = objectBody(req.body, 'name');
    const name = body.name;
    if (typeof name !== 'string') throw new HttpError(400, 'INVALID_ARGUMENT', `'name' must be a non-empty string`);
    res.status(201).json(namespaceView(await invalidAs400(() => registry.register(name, changesOf(body)))));
  });
  router.get('/api/v1/namespaces', Allow.signedIn, async (_req, res) => {
    await registry.catchUp();
    // With authentication on, a caller sees the namespaces it may read, not every tenant's name.
    const principal = res.locals.principal as AuthenticatedPrincipal | undefined;
    const visible = registry.list().filter((ns) => !principal || principal.method === 'peer' || hasRole(principal.grants, ns.name, 'reader'));
    res.json({ namespaces: visible.map(namespaceView) });
  });
  router.get('/api/v1/namespaces/:namespace', Allow.reader, async (req, res) => {
    await registry.catchUp();
    const namespace = registry.get(String(req.params.namespace));
    if (!namespace) throw new HttpError(404, 'NamespaceNotFound', `namespace ${req.params.namespace} is not registered`);
    res.json(namespaceView(namespace));
  });
  const update = async (req: Request, res: Response) => {
    assertMayChangeLimits(res, String(req.params.namespace), objectBody(req.body));
    const changes = changesOf(objectBody(req.body));
    res.json(namespaceView(await invalidAs400(() => registry.update(String(req.params.namespace), changes))));
  };
  router.put('/api/v1/namespaces/:namespace', Allow.admin, update);
  router.patch('/api/v1/namespaces/:namespace', Allow.admin, update);
  router.use('/api/v1/namespaces/:namespace/', (req: Request, res: Response, next: NextFunction) => guard.check(req, res, next));
  return router;
}

/** A namespace as the API shows it: times as RFC 3339, the retention also as a duration. */
export function namespaceView(namespace: Namespace): Record<string, unknown> {
  return {
    ...namespace,
    retention: formatDuration(namespace.retentionMs),
    registerTime: new Date(namespace.registerTime).toISOString(),
    updateTime: new Date(namespace.updateTime).toISOString(),
  };
}

function formatDuration(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

function objectBody(body: unknown, ...extra: string[]): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'INVALID_ARGUMENT', 'the body must be a JSON object');
  const unknown = Object.keys(body).filter((k) => !CHANGE_FIELDS.includes(k) && !extra.includes(k));
  if (unknown.length > 0) throw new HttpError(400, 'INVALID_ARGUMENT', `unknown field(s) ${unknown.join(', ')}; known: ${[...extra, ...CHANGE_FIELDS].join(', ')}`);
  return body as Record<string, unknown>;
}

function objectField(body: Record<string, unknown>, key: string): Record<string, number | null> | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'INVALID_ARGUMENT', `'${key}' must be an object`);
  return value as Record<string, number | null>;
}

/** The changes of a register or update body; the model validates each value. */
/** The settings that bound what a namespace may take from the deployment: the deployment's admins set them. */
const DEPLOYMENT_SETTINGS = ['state', 'retention', 'historyLimits', 'startsPerSecond', 'apiCallsPerSecond', 'taskQueueActivitiesPerSecond'];

/**
 * A namespace's admin changes its description, owner and payload guards; its limits, retention
 * and state need the admin role in every namespace (`*:admin`), or a tenant could lift its own.
 * @throws HttpError 403 `PERMISSION_DENIED` naming the settings
 */
function assertMayChangeLimits(res: Response, namespace: string, body: Record<string, unknown>): void {
  const principal = res.locals.principal as AuthenticatedPrincipal | undefined;
  if (!principal || principal.method === 'peer' || principal.method === 'none' || hasRole(principal.grants, EVERY_NAMESPACE, 'admin')) return;
  const limits = DEPLOYMENT_SETTINGS.filter((key) => body[key] !== undefined);
  if (limits.length > 0) throw new HttpError(403, 'PERMISSION_DENIED', `'${principal.subject}' may not change ${limits.join(', ')} of namespace ${namespace}: limits, retention and state need the admin role in every namespace (permission "*:admin")`);
}

function changesOf(body: Record<string, unknown>): NamespaceChanges {
  let retentionMs: number | undefined;
  if (body.retention !== undefined) {
    try {
      retentionMs = durationToMs(body.retention as string | number, 'retention');
    } catch (error) {
      throw new HttpError(400, 'INVALID_ARGUMENT', (error as Error).message);
    }
  }
  const historyLimits = objectField(body, 'historyLimits');
  const taskQueueActivitiesPerSecond = objectField(body, 'taskQueueActivitiesPerSecond');
  return {
    ...pick(body, ['description', 'ownerEmail', 'state', 'startsPerSecond', 'apiCallsPerSecond', 'codecRequiredTaskQueues', 'refusedSearchAttributes']),
    ...(retentionMs === undefined ? {} : { retentionMs }),
    ...(historyLimits ? { historyLimits } : {}),
    ...(taskQueueActivitiesPerSecond ? { taskQueueActivitiesPerSecond } : {}),
  };
}

function pick(body: Record<string, unknown>, keys: readonly string[]): Record<string, never> {
  return Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]])) as Record<string, never>;
}

async function invalidAs400<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InvalidNamespaceError) throw new HttpError(400, error.code, error.message);
    throw error;
  }
}
