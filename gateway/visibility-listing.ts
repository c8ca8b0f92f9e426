/**
 * List and count runs matching a visibility query, across the nodes of the group. Each node
 * answers for the shards it owns (`local`); the node asked also asks every other member that owns
 * shards and merges their answers, so the listing covers every shard whichever node is asked.
 * @module
 */
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import type { Engine } from './engine.js';
import { ShardUnavailableError } from './engine.js';
import { HttpError } from './http-errors.js';
import { toJsonView } from './json-views.js';
import { compareRows, compileQuery, decodePageToken, InvalidQueryError, pageOf, pageTokenAfter, type RowPredicate, type SortKey } from './visibility-query/index.js';

/** The largest page a list request may ask for. */
export const MAX_PAGE_SIZE = 1000;
/** The page size when the request names none. */
export const DEFAULT_PAGE_SIZE = 100;

/** A list request: the filter, the page size and where to resume. */
export interface ListRequest {
  readonly namespace: string;
  readonly query: string;
  readonly pageSize: number;
  readonly nextPageToken?: string;
}

/** One run as listed: its summary row, times as RFC 3339 strings, payloads decoded. */
export interface ExecutionView {
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: string;
  startTime: string;
  closeTime: string | null;
  executionTime: string;
  historyLength: number;
  memo: unknown;
  searchAttributes: Record<string, { type: string; value: unknown }>;
}

/** A page of a listing; `nextPageToken` is null on the last page. */
export interface ListAnswer {
  executions: ExecutionView[];
  nextPageToken: string | null;
}

/**
 * One page of the runs matching `request`: this node's shards only when `local`, else every
 * member's, merged in listing order (StartTime newest first, then workflow id, then run id).
 * @throws HttpError 400 `INVALID_QUERY` for a bad query or page token; ShardUnavailableError while a shard has no owner
 */
export async function listExecutions(engine: Engine, request: ListRequest, local: boolean): Promise<ListAnswer> {
  const predicate = compiled(request.query);
  const after = request.nextPageToken ? invalidQueryAs400(() => decodePageToken(request.nextPageToken!)) : undefined;
  const page = pageOf(await localMatchingRows(engine, request.namespace, predicate), request.pageSize, after);
  const mine: ListAnswer = { executions: page.rows.map((r) => executionView(r, engine)), nextPageToken: page.nextPageToken };
  if (local) return mine;
  const answers = [mine, ...(await askPeers<ListAnswer>(engine, `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/workflows`, listParams(request)))];
  const merged = answers.flatMap((a) => a.executions).sort((a, b) => compareRows(sortKeyOf(a), sortKeyOf(b)));
  const executions = merged.slice(0, request.pageSize);
  // Each member returned at most a page after the token: there is more if the merge overflows or a member had more.
  const more = merged.length > request.pageSize || answers.some((a) => a.nextPageToken !== null);
  const last = executions[executions.length - 1];
  return { executions, nextPageToken: more && last ? pageTokenAfter(sortKeyOf(last)) : null };
}

/** How many runs match `query`: on this node's shards when `local`, else on every shard. */
export async function countExecutions(engine: Engine, namespace: string, query: string, local: boolean): Promise<number> {
  const predicate = compiled(query);
  const mine = (await localMatchingRows(engine, namespace, predicate)).length;
  if (local) return mine;
  const others = await askPeers<{ count: number }>(engine, `/api/v1/namespaces/${encodeURIComponent(namespace)}/workflow-count`, new URLSearchParams({ query }));
  return others.reduce((sum, o) => sum + o.count, mine);
}

function compiled(query: string): RowPredicate {
  return invalidQueryAs400(() => compileQuery(query));
}

function invalidQueryAs400<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof InvalidQueryError) throw new HttpError(400, 'INVALID_QUERY', error.message);
    throw error;
  }
}

/** The namespace's matching rows on this node's shards; a shard owned but not yet open is unavailable, not empty. */
async function localMatchingRows(engine: Engine, namespace: string, predicate: RowPredicate): Promise<VisibilityRow[]> {
  requireOwnedShardsOpen(engine);
  const rows: VisibilityRow[] = [];
  for await (const row of engine.localVisibilityRows()) {
    if (row.namespace === namespace && invalidQueryAs400(() => predicate(row))) rows.push(row);
  }
  return rows;
}

/**
 * Throws while a shard this node owns is not open yet: its rows are unavailable, not absent.
 * @throws ShardUnavailableError
 */
export function requireOwnedShardsOpen(engine: Engine): void {
  for (const shard of engine.node.ownedShards()) {
    if (!engine.node.processor(shard)?.localStore) throw new ShardUnavailableError(shard, undefined);
  }
}

/**
 * The `local=1` answers of every other member owning shards, for a GET of `path` with `params`.
 * Every shard must have an owner, so that no run is silently left out while the group rebalances.
 * @throws ShardUnavailableError when a shard has no owner; HttpError with a peer's status when it fails
 */
export async function askPeers<T>(engine: Engine, path: string, params: URLSearchParams): Promise<T[]> {
  const mine = new Set(engine.node.ownedShards());
  const members = await engine.node.members();
  const covered = new Set(members.flatMap((m) => m.partitions));
  for (let shard = 0; shard < engine.catalog.shards; shard++) {
    if (!covered.has(shard) && !mine.has(shard)) throw new ShardUnavailableError(shard, undefined);
  }
  // A member is another node when it owns shards and none of them is ours (ownership is exclusive).
  const peers = members.filter((m) => m.partitions.length > 0 && !m.partitions.some((p) => mine.has(p)));
  params.set('local', '1');
  return Promise.all(peers.map(async (peer) => {
    const response = await fetch(`${peer.endpoint}${path}?${params.toString()}`, { headers: { 'x-logbook-forwarded': '1' } });
    const body = (await response.json()) as T & { code?: string; message?: string };
    if (!response.ok) throw new HttpError(response.status, body.code ?? 'INTERNAL', `${peer.endpoint}: ${body.message ?? response.statusText}`);
    return body;
  }));
}

function listParams(request: ListRequest): URLSearchParams {
  const params = new URLSearchParams({ query: request.query, pageSize: String(request.pageSize) });
  if (request.nextPageToken) params.set('nextPageToken', request.nextPageToken);
  return params;
}

function sortKeyOf(view: ExecutionView): SortKey {
  return { startTime: Date.parse(view.startTime), workflowId: view.workflowId, runId: view.runId };
}

function executionView(row: VisibilityRow, engine: Engine): ExecutionView {
  const iso = (ms: number) => new Date(ms).toISOString();
  const searchAttributes = Object.fromEntries(Object.entries(row.searchAttributes).map(([name, a]) => [name, a.type === 'Datetime' ? { type: a.type, value: iso(a.value) } : { type: a.type, value: a.value }]));
  return {
    workflowId: row.workflowId,
    runId: row.runId,
    workflowType: row.workflowType,
    taskQueue: row.taskQueue,
    status: row.status,
    startTime: iso(row.startTime),
    closeTime: row.closeTime === null ? null : iso(row.closeTime),
    executionTime: iso(row.executionTime),
    historyLength: row.historyLength,
    memo: toJsonView(row.memo, engine.dataConverter),
    searchAttributes,
  };
}
