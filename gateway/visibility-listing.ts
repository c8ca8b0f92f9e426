/**
 * List and count runs matching a visibility query, across the nodes of the group. Each node
 * answers for the shards it serves (`local`) and says which; the node asked also asks every other
 * member that owns shards and merges their answers, so the listing covers every shard whichever
 * node is asked — or answers 503 naming the shards it cannot see (`shard-coverage.ts`).
 * @module
 */
import type { VisibilityRow } from '../topics/schemas/visibility-row/index.js';
import type { Engine } from './engine.js';
import { HttpError } from './http-errors.js';
import { askPeers, requireEveryShard, scanLocalVisibility } from './shard-coverage.js';
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
  /** Set on a `local` answer: the shards it covers (owned by this node and restored). */
  shards?: number[];
}

/** A count; `shards` as in {@link ListAnswer}. */
export interface CountAnswer {
  count: number;
  shards?: number[];
}

/**
 * One page of the runs matching `request`: this node's shards only when `local` (the answer names
 * them), else every member's, merged in listing order (StartTime newest first, then workflow id,
 * then run id).
 * @throws HttpError 400 `INVALID_QUERY` for a bad query or page token; 503 `SHARD_UNAVAILABLE` naming the shards no node could read
 */
export async function listExecutions(engine: Engine, request: ListRequest, local: boolean): Promise<ListAnswer> {
  const predicate = compiled(request.query);
  const after = request.nextPageToken ? invalidQueryAs400(() => decodePageToken(request.nextPageToken!)) : undefined;
  const scan = await localMatchingRows(engine, request.namespace, predicate);
  const page = pageOf(scan.rows, request.pageSize, after);
  const mine = { executions: page.rows.map((r) => executionView(r, engine)), nextPageToken: page.nextPageToken, shards: scan.shards };
  if (local) return mine;
  const answers = [mine, ...(await askPeers<ListAnswer>(engine, `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/workflows`, listParams(request)))];
  requireEveryShard(engine, answers.flatMap((a) => a.shards));
  const merged = answers.flatMap((a) => a.executions).sort((a, b) => compareRows(sortKeyOf(a), sortKeyOf(b)));
  const executions = merged.slice(0, request.pageSize);
  // Each member returned at most a page after the token: there is more if the merge overflows or a member had more.
  const more = merged.length > request.pageSize || answers.some((a) => a.nextPageToken !== null);
  const last = executions[executions.length - 1];
  return { executions, nextPageToken: more && last ? pageTokenAfter(sortKeyOf(last)) : null };
}

/**
 * How many runs match `query`: on this node's shards when `local` (the answer names them), else on every shard.
 * @throws HttpError 400 `INVALID_QUERY`; 503 `SHARD_UNAVAILABLE` naming the shards no node could read
 */
export async function countExecutions(engine: Engine, namespace: string, query: string, local: boolean): Promise<CountAnswer> {
  const predicate = compiled(query);
  const scan = await localMatchingRows(engine, namespace, predicate);
  const mine = { count: scan.rows.length, shards: scan.shards };
  if (local) return mine;
  const answers = [mine, ...(await askPeers<CountAnswer>(engine, `/api/v1/namespaces/${encodeURIComponent(namespace)}/workflow-count`, new URLSearchParams({ query })))];
  requireEveryShard(engine, answers.flatMap((a) => a.shards));
  return { count: answers.reduce((sum, a) => sum + a.count, 0) };
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

/** The namespace's matching rows on the shards this node serves, and which shards those are. */
function localMatchingRows(engine: Engine, namespace: string, predicate: RowPredicate) {
  return scanLocalVisibility(engine, (row) => row.namespace === namespace && invalidQueryAs400(() => predicate(row)));
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
