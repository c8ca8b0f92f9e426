/**
 * What a caller may do, read from its claims: a role per namespace, and the task queues it may
 * serve on the HTTP task endpoints. Pure; the authenticator builds it, the route rules read it.
 *
 * Claims (a JWT's payload, or a certificate's entry in the mTLS principals file):
 * - `permissions`: `"<namespace>:<role>"` strings, Temporal's format. Roles, each including the one
 *   before: `reader` (`read`), `writer` (`write`), `admin`. `worker` lets the caller serve every task
 *   queue of the namespace. Namespace `*` is every namespace and the deployment itself (registering
 *   namespaces, ingress mappings, metrics).
 * - `taskQueues`: `"<namespace>:<queue>"` strings (queue `*` is every queue of the namespace): the
 *   queues whose tasks the caller may poll and answer.
 * @module
 */

/** A namespace role, weakest first. */
export type Role = 'reader' | 'writer' | 'admin';

const RANK: Record<Role, number> = { reader: 1, writer: 2, admin: 3 };
const ROLE_NAMES: Record<string, Role | 'worker'> = { reader: 'reader', read: 'reader', writer: 'writer', write: 'writer', admin: 'admin', worker: 'worker' };

/** The namespace that stands for every namespace and for the deployment. */
export const EVERY_NAMESPACE = '*';

/** A caller's rights. */
export interface Grants {
  /** The strongest role held per namespace (`*` for every namespace). */
  readonly roles: ReadonlyMap<string, Role>;
  /** `namespace:queue` pairs the caller may serve; a queue of `*` is every queue of that namespace. */
  readonly taskQueues: ReadonlySet<string>;
}

/** No rights at all. */
export const NO_GRANTS: Grants = { roles: new Map(), taskQueues: new Set() };

/**
 * The grants a token's claims give.
 * @throws TypeError naming the claim when `permissions` or `taskQueues` is not an array of
 *   `namespace:value` strings, or names an unknown role — a token that says something we cannot
 *   read is refused rather than half-understood
 */
export function grantsOf(claims: Record<string, unknown>): Grants {
  const roles = new Map<string, Role>();
  const taskQueues = new Set<string>();
  for (const [namespace, name] of pairs(claims.permissions, 'permissions')) {
    const role = Object.hasOwn(ROLE_NAMES, name) ? ROLE_NAMES[name] : undefined;
    if (role === undefined) throw new TypeError(`claim 'permissions' names an unknown role '${name}' (known: reader, writer, admin, worker)`);
    if (role === 'worker') taskQueues.add(`${namespace}:*`);
    else roles.set(namespace, strongest(roles.get(namespace), role));
  }
  for (const [namespace, queue] of pairs(claims.taskQueues, 'taskQueues')) taskQueues.add(`${namespace}:${queue}`);
  return { roles, taskQueues };
}

/** Whether the grants hold `role` (or a stronger one) in `namespace`. */
export function hasRole(grants: Grants, namespace: string, role: Role): boolean {
  return [grants.roles.get(namespace), grants.roles.get(EVERY_NAMESPACE)].some((held) => held !== undefined && RANK[held] >= RANK[role]);
}

/** Whether the grants let the caller poll and answer tasks of `queue` in `namespace` (a namespace admin may). */
export function mayServeQueue(grants: Grants, namespace: string, queue: string): boolean {
  if (hasRole(grants, namespace, 'admin')) return true;
  return [namespace, EVERY_NAMESPACE].some((ns) => grants.taskQueues.has(`${ns}:${queue}`) || grants.taskQueues.has(`${ns}:*`));
}

/** Whether the grants let the caller serve some task queue of `namespace` (it is a worker there). */
export function servesSomeQueue(grants: Grants, namespace: string): boolean {
  return hasRole(grants, namespace, 'admin') || [...grants.taskQueues].some((entry) => entry.startsWith(`${namespace}:`) || entry.startsWith(`${EVERY_NAMESPACE}:`));
}

/** The grants as the claim strings they came from, for error messages ("it holds …"). */
export function describeGrants(grants: Grants): string {
  const held = [...[...grants.roles].map(([ns, role]) => `${ns}:${role}`), ...[...grants.taskQueues].map((q) => `task queue ${q}`)];
  return held.length === 0 ? 'no permissions' : held.join(', ');
}

function strongest(held: Role | undefined, role: Role): Role {
  return held !== undefined && RANK[held] > RANK[role] ? held : role;
}

/** `[namespace, value]` of each `namespace:value` string of a claim (absent: none). */
function pairs(claim: unknown, name: string): Array<[string, string]> {
  if (claim === undefined) return [];
  if (!Array.isArray(claim)) throw new TypeError(`claim '${name}' must be an array of "namespace:value" strings`);
  return claim.map((entry) => {
    const at = typeof entry === 'string' ? entry.lastIndexOf(':') : -1;
    if (typeof entry !== 'string' || at <= 0 || at === entry.length - 1) throw new TypeError(`claim '${name}' holds ${JSON.stringify(entry)}, not a "namespace:value" string`);
    return [entry.slice(0, at), entry.slice(at + 1)];
  });
}
